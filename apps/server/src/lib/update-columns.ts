import type { Database } from '@kyfw/db';

/** `failureReason` -> `failure_reason`: the column of a repository's camelCase field. */
type Snake<S extends string> = S extends `${infer C}${infer Rest}`
  ? `${C extends Lowercase<C> ? C : `_${Lowercase<C>}`}${Snake<Rest>}`
  : '';

/** The SET object of a partial update: given fields under their columns, JSON fields as text. */
export type UpdateColumns<U, J extends keyof U> = {
  [K in keyof U & string as Snake<K>]?: K extends J
    ? null extends U[K]
      ? string | null
      : string
    : Exclude<U[K], undefined>;
};

/** A field whose column the table does not have makes the call a type error naming it. */
type KnownColumns<T extends keyof Database, F extends string> = [
  Exclude<Snake<F>, keyof Database[T]>,
] extends [never]
  ? unknown
  : { unknownColumn: Exclude<Snake<F>, keyof Database[T]> };

/**
 * The columns a partial update writes: each of `fields` that `update` gives (not `undefined`), under
 * its snake_case column of `table` (checked at compile time); the fields named in `json` as JSON
 * text (null stays null). A field not named in `fields` is never written, whatever object the caller
 * passes. For a repository's `updateX(db, id, changes)`, so that each field is not written out again
 * as `...(u.x !== undefined ? { x: u.x } : {})`.
 */
export function updateColumns<
  T extends keyof Database,
  U extends object,
  F extends keyof U & string,
  J extends F = never,
>(
  _table: T,
  update: U,
  fields: readonly F[] & KnownColumns<T, F>,
  json: readonly J[] = [],
): UpdateColumns<Pick<U, F>, J> {
  const out: Record<string, unknown> = {};
  const values = update as Record<string, unknown>;
  for (const field of fields as readonly string[]) {
    const value = values[field];
    if (value === undefined) continue;
    const column = field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
    out[column] =
      (json as readonly string[]).includes(field) && value !== null ? JSON.stringify(value) : value;
  }
  return out as UpdateColumns<Pick<U, F>, J>;
}
