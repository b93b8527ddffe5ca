import { readFileSync } from 'node:fs';
import { expect } from 'vitest';
import { ExtractError, type ExtractErrorKind } from '../../src/extract/index.ts';

/** Reads a committed fixture from test/extract/fixtures (see fixtures/README.md for how each was made). */
export function readFixture(name: string): Uint8Array {
  return new Uint8Array(readFileSync(new URL(`./fixtures/${name}`, import.meta.url)));
}

/** Awaits the promise and asserts it fails with an ExtractError of the given kind; returns it. */
export async function expectExtractError(
  promise: Promise<unknown>,
  kind: ExtractErrorKind,
): Promise<ExtractError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ExtractError);
  const extractError = error as ExtractError;
  expect({ kind: extractError.kind, name: extractError.name }).toEqual({ kind, name: 'ExtractError' });
  // The message is shown to users as is: it must be Chinese.
  expect(extractError.message).toMatch(/[\u4e00-\u9fff]/);
  return extractError;
}
