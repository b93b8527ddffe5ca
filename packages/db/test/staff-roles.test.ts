import { STAFF_ROLE_VALUES } from '@kyfw/contracts';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DbHandle } from '../src/create-db.ts';
import { createTestDb } from '../src/testing.ts';

// Creating a PGlite database runs initdb: seconds, more on a busy machine.
const SLOW = 180_000;

/**
 * The staff roles are written once, in the contracts (staff-permissions.ts); the db package's
 * StaffRole is that type. The migrations' CHECK on staff_accounts.role is SQL and cannot import
 * it, so this test holds it equal: a role added to the contracts without a migration (or the
 * reverse) fails here.
 */
describe('staff_accounts.role CHECK = the contracts’ roles', { timeout: SLOW }, () => {
  let handle: DbHandle;
  beforeAll(async () => {
    handle = await createTestDb();
  }, SLOW);
  afterAll(() => handle?.close());

  it('allows exactly STAFF_ROLE_VALUES', async () => {
    const { rows } = await sql<{ def: string }>`
      select pg_get_constraintdef(c.oid) as def
      from pg_constraint c join pg_class t on t.oid = c.conrelid
      where t.relname = 'staff_accounts' and c.contype = 'c'
        and pg_get_constraintdef(c.oid) like '%role%'`.execute(handle.db);
    expect(rows).toHaveLength(1);
    const allowed = [...rows[0]!.def.matchAll(/'([a-z_]+)'::text/g)].map((m) => m[1]);
    expect(allowed).toEqual([...STAFF_ROLE_VALUES]);
  });
});
