import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, type DbHandle } from '../src/create-db.ts';
import { migrate, readMigrations } from '../src/migrate.ts';
import { DEFAULT_FRIEND_LINKS, DEFAULT_SITE_SETTINGS, seed } from '../src/seed.ts';
import { createTempPostgresDatabase } from '../src/testing.ts';

// Creating a PGlite database runs initdb: seconds, more on a busy machine.
const SLOW = 180_000;

describe('migrate and seed on in-memory PGlite', { timeout: SLOW }, () => {
  let handle: DbHandle;
  beforeAll(async () => {
    handle = await createDb({ memory: true });
  }, SLOW);
  afterAll(() => handle.close());

  it('applies every migration once, in order, and is idempotent', async () => {
    const files = await readMigrations();
    expect(files.map((f) => f.version)).toEqual([...files.map((f) => f.version)].sort());

    const first = await migrate(handle.db);
    expect(first).toEqual(files.map((f) => f.version));
    expect(await migrate(handle.db)).toEqual([]);

    const recorded = await handle.db
      .selectFrom('schema_migrations')
      .select('version')
      .orderBy('version')
      .execute();
    expect(recorded.map((r) => r.version)).toEqual(first);
  });

  it('enforces the job status CHECK', async () => {
    await expect(
      handle.db
        .insertInto('jobs')
        .values({ name: 'x', payload: '{}', status: 'bogus' as 'queued' })
        .execute(),
    ).rejects.toThrow(/check constraint/);
  });

  it('seeds the footer defaults once and never overwrites edits', async () => {
    await seed(handle.db);
    await handle.db.updateTable('site_settings').set({ name: '改过的名字' }).execute();
    await handle.db.deleteFrom('friend_links').execute();
    await seed(handle.db);

    const settings = await handle.db.selectFrom('site_settings').selectAll().execute();
    expect(settings).toHaveLength(1);
    expect(settings[0].name).toBe('改过的名字');
    expect(settings[0].record_number).toBe(DEFAULT_SITE_SETTINGS.record_number);
    const links = await handle.db.selectFrom('friend_links').select('id').execute();
    expect(links).toHaveLength(0);
  });

  it('seeds friend links in order on a fresh database', async () => {
    const fresh = await createDb({ memory: true });
    try {
      await migrate(fresh.db);
      await seed(fresh.db);
      await seed(fresh.db);
      const links = await fresh.db
        .selectFrom('friend_links')
        .select(['name', 'url'])
        .orderBy('sort_order')
        .execute();
      expect(links).toEqual(DEFAULT_FRIEND_LINKS);
    } finally {
      await fresh.close();
    }
  });

  it('parses int8 as a number and round-trips jsonb text', async () => {
    const row = await sql<{ n: number }>`select count(*) as n from friend_links`.execute(handle.db);
    expect(typeof row.rows[0].n).toBe('number');
    const job = await handle.db
      .insertInto('jobs')
      .values({ name: 'json', payload: JSON.stringify([1, { a: '中文' }]) })
      .returning('payload')
      .executeTakeFirstOrThrow();
    expect(job.payload).toEqual([1, { a: '中文' }]);
  });

  it('never interleaves other queries into an open transaction', async () => {
    await sql`create table if not exists probe (v int)`.execute(handle.db);
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const tx = handle.db.transaction().execute(async (trx) => {
      await sql`insert into probe values (1)`.execute(trx);
      await gate;
      throw new Error('roll back');
    });
    // Issued while the transaction is open: must wait for it and see the rolled-back state.
    const outside = sql<{ n: number }>`select count(*) as n from probe`.execute(handle.db);
    release();
    await expect(tx).rejects.toThrow('roll back');
    expect((await outside).rows[0].n).toBe(0);
  });

  it('rejects a migration edited after it was applied', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'kyfw-mig-'));
    const db = await createDb({ memory: true });
    try {
      await writeFile(path.join(dir, '0001_a.sql'), 'create table a (id int);');
      await migrate(db.db, { migrationsDir: dir });
      await writeFile(path.join(dir, '0001_a.sql'), 'create table a (id bigint);');
      await expect(migrate(db.db, { migrationsDir: dir })).rejects.toThrow(/changed after it was applied/);
      await writeFile(path.join(dir, '0001_a.sql'), 'create table a (id int);');
      await writeFile(path.join(dir, '0002_b.sql'), 'create table b (id int); select nonsense_fn();');
      await expect(migrate(db.db, { migrationsDir: dir })).rejects.toThrow();
      // The failed migration left nothing behind: its transaction rolled back.
      const tables = await sql<{ t: string }>`select to_regclass('b')::text as t`.execute(db.db);
      expect(tables.rows[0].t).toBeNull();
    } finally {
      await db.close();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('persists under dataDir/pglite across reopen', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'kyfw-data-'));
    try {
      const a = await createDb({ dataDir: dir });
      await migrate(a.db);
      await seed(a.db);
      await a.close();
      const b = await createDb({ dataDir: dir });
      expect(await migrate(b.db)).toEqual([]);
      const s = await b.db.selectFrom('site_settings').select('name').executeTakeFirstOrThrow();
      expect(s.name).toBe(DEFAULT_SITE_SETTINGS.name);
      await b.close();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('applies each migration once when several processes start at the same time', async () => {
    // Two pools on one PostgreSQL database stand for two processes (the advisory lock decides);
    // PGlite is one session, so there the two runs share one handle.
    const adminUrl = process.env.DATABASE_URL;
    const temp = adminUrl ? await createTempPostgresDatabase(adminUrl) : undefined;
    const first = temp ? await createDb({ databaseUrl: temp.url }) : await createDb({ memory: true });
    const second = temp ? await createDb({ databaseUrl: temp.url }) : first;
    try {
      const runs = await Promise.all([migrate(first.db), migrate(second.db), migrate(first.db)]);
      const all = (await readMigrations()).map((m) => m.version);
      expect(runs.flat().sort()).toEqual(all);
      const rows = await first.db.selectFrom('schema_migrations').select('version').execute();
      expect(rows).toHaveLength(all.length);
      await Promise.all([seed(first.db), seed(second.db)]);
      expect(await first.db.selectFrom('site_settings').select('id').execute()).toHaveLength(1);
      const links = await first.db.selectFrom('friend_links').select('id').execute();
      expect(links).toHaveLength(DEFAULT_FRIEND_LINKS.length);
    } finally {
      await first.close();
      await second.close();
      await temp?.drop();
    }
  });
});

describe('migration 0012: the similarity index tables in a database the engine prepared itself', {
  timeout: SLOW,
}, () => {
  it('keeps the tables and rows, builds the lookup index and drops the index on hash alone', async () => {
    const handle = await createDb({ memory: true });
    try {
      // What the engine's own DDL left before 0012 (tables created on opening the index), with a
      // library indexed by an earlier version: the index on hash alone, no lookup index.
      for (const statement of [
        'create table simcheck_meta (key text primary key, value text not null)',
        'create sequence simcheck_doc_no_seq',
        `create table simcheck_documents (doc_no bigint primary key, id text not null unique, title text,
           text text not null, chars integer not null check (chars >= 0), added_at timestamptz not null default now())`,
        'create table simcheck_fingerprints (hash bigint not null, doc_no bigint not null, pos integer not null)',
        'create index simcheck_fingerprints_hash_idx on simcheck_fingerprints (hash)',
        `insert into simcheck_meta values ('params', '{"k":5,"minRun":13}')`,
        `insert into simcheck_documents (doc_no, id, title, text, chars) values (nextval('simcheck_doc_no_seq'), 'a', null, '研究', 2)`,
        'insert into simcheck_fingerprints values (4294967295, 1, 0), (7, 1, 3)',
      ])
        await sql.raw(statement).execute(handle.db);

      const applied = await migrate(handle.db);
      expect(applied).toContain('0012');
      const indexes = await sql<{ indexname: string }>`
        select indexname from pg_indexes where tablename = 'simcheck_fingerprints' order by 1`.execute(
        handle.db,
      );
      expect(indexes.rows.map((r) => r.indexname)).toEqual([
        'simcheck_fingerprints_doc_idx',
        'simcheck_fingerprints_lookup_idx',
      ]);
      const rows = await handle.db.selectFrom('simcheck_fingerprints').selectAll().orderBy('pos').execute();
      expect(rows).toEqual([
        { hash: 4294967295, doc_no: 1, pos: 0 },
        { hash: 7, doc_no: 1, pos: 3 },
      ]);
      const meta = await handle.db.selectFrom('simcheck_meta').selectAll().execute();
      expect(meta).toEqual([{ key: 'params', value: '{"k":5,"minRun":13}' }]);
      const next = await sql<{ n: number }>`select nextval('simcheck_doc_no_seq') as n`.execute(handle.db);
      expect(next.rows[0]!.n).toBe(2);
    } finally {
      await handle.close();
    }
  });
});
