/**
 * Both index backends give identical reports on the same corpus: the local on-disk index and the
 * PostgreSQL tables (on PGlite in-process, and on the server in DATABASE_URL when it is set, as CI does).
 */
import fs from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPgIndexTables } from '../bench/lib/pg-tables.ts';
import { checkText, getIndexFingerprints, type Index, openIndex } from '../src/index.ts';
import { createPgIndex, type Queryable } from '../src/index-store/pg.ts';
import {
  LIBRARY,
  makeTempDir,
  OWN_OTHER,
  OWN_SAME_TOPIC,
  SRC_ECONOMY,
  SRC_EDUCATION,
  SRC_MEDICINE,
  SRC_PLAGIARISM,
  SRC_SOIL,
} from './fixtures.ts';

// A document mixing verbatim, edited, quoted and reordered reuse.
const THESIS = [
  '第一章 绪论',
  OWN_OTHER,
  SRC_SOIL,
  '第二章 方法',
  OWN_SAME_TOPIC,
  SRC_EDUCATION.replace('教学方法单一', '教学手段单一'),
  `正如已有研究所指出的，“${SRC_MEDICINE.slice(3, 27)}”[2]。`,
  SRC_ECONOMY.match(/[^。]+。/g)!
    .reverse()
    .join(''),
  SRC_PLAGIARISM.slice(0, 60),
  '参考文献',
  '[1] 张三. 文本相似度检测方法研究[J]. 计算机学报, 2019, 42(3): 1-10.',
].join('\n');

async function addInTwoBatches(index: Index): Promise<void> {
  await index.addDocuments(LIBRARY.slice(0, 2));
  await index.addDocuments(LIBRARY.slice(2));
}

type PgTarget = { name: string; open: () => Promise<{ index: Index; dispose: () => Promise<void> }> };

const targets: PgTarget[] = [
  {
    name: 'PGlite',
    open: async () => {
      const db = new PGlite();
      await createPgIndexTables(db);
      const index = await createPgIndex(db as unknown as Queryable);
      return { index, dispose: () => db.close() };
    },
  },
];
const serverUrl = process.env.DATABASE_URL;
if (serverUrl) {
  targets.push({
    name: 'PostgreSQL server (DATABASE_URL)',
    open: async () => {
      // A schema of our own, so that document numbers start from 1 as in a fresh local index.
      const schema = `simcheck_test_${process.pid}_${Date.now()}`;
      const admin = new pg.Pool({ connectionString: serverUrl, max: 1 });
      await admin.query(`CREATE SCHEMA ${schema}`);
      const pool = new pg.Pool({ connectionString: serverUrl, max: 2, options: `-c search_path=${schema}` });
      await createPgIndexTables(pool);
      const index = await createPgIndex(pool as unknown as Queryable);
      return {
        index,
        dispose: async () => {
          await pool.end();
          await admin.query(`DROP SCHEMA ${schema} CASCADE`);
          await admin.end();
        },
      };
    },
  });
}

describe.each(targets)('local index and $name', ({ open }) => {
  let dir: string;
  let local: Index;
  let pgIndex: Index;
  let dispose: () => Promise<void>;

  beforeAll(async () => {
    dir = makeTempDir('backends');
    local = await openIndex(dir, { create: true });
    await addInTwoBatches(local);
    ({ index: pgIndex, dispose } = await open());
    await addInTwoBatches(pgIndex);
  }, 60_000);

  afterAll(async () => {
    await local.close();
    await pgIndex.close();
    await dispose();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('agree on stats and on candidate postings', async () => {
    const [a, b] = [await local.stats(), await pgIndex.stats()];
    expect(a.documents).toBe(LIBRARY.length);
    expect(b).toMatchObject({
      documents: a.documents,
      fingerprints: a.fingerprints,
      characters: a.characters,
    });
    const hashes = getIndexFingerprints(THESIS, local.params).hashes;
    const [pa, pb] = [await local.lookup(hashes), await pgIndex.lookup(hashes)];
    expect(pa.hashes.length).toBeGreaterThan(20);
    expect(pb).toEqual(pa);
  });

  it('agree on leaving out frequent hashes and on postings of chosen documents', async () => {
    // Every fingerprint of the whole library: some occur in several documents.
    const hashes = Uint32Array.from(
      new Set(LIBRARY.flatMap((d) => [...getIndexFingerprints(d.text, local.params).hashes])),
    );
    const all = await local.lookup(hashes);
    const capped = await local.lookup(hashes, { maxPostings: 1 });
    expect(capped.frequent!.length).toBeGreaterThan(0);
    expect(capped.hashes.length + (await local.lookup(capped.frequent!)).hashes.length).toBe(
      all.hashes.length,
    );
    expect(await pgIndex.lookup(hashes, { maxPostings: 1 })).toEqual(capped);
    const docNos = [all.docNos[0]!, all.docNos[all.docNos.length - 1]!];
    const chosen = await local.lookup(hashes, { docNos });
    expect(chosen.hashes.length).toBeGreaterThan(0);
    expect(new Set(chosen.docNos)).toEqual(new Set(docNos));
    expect(await pgIndex.lookup(hashes, { docNos })).toEqual(chosen);
  });

  it('give identical reports', async () => {
    const a = await checkText(local, THESIS);
    const b = await checkText(pgIndex, THESIS);
    expect(a.matches.length).toBeGreaterThanOrEqual(5);
    expect(b).toEqual(a);
  });

  it('stay identical after removing and replacing documents', async () => {
    for (const index of [local, pgIndex]) {
      expect(await index.removeDocument('soil')).toBe(true);
      expect(await index.removeDocument('soil')).toBe(false);
      await index.addDocuments([{ id: 'edu', title: '替换后的版本', text: SRC_EDUCATION }]);
    }
    const a = await checkText(local, THESIS);
    const b = await checkText(pgIndex, THESIS);
    expect(a.matches.some((m) => m.sourceId === 'soil')).toBe(false);
    expect(a.sources.find((s) => s.sourceId === 'edu')?.title).toBe('替换后的版本');
    expect(b).toEqual(a);
    const [sa, sb] = [await local.stats(), await pgIndex.stats()];
    expect(sa.documents).toBe(LIBRARY.length - 1);
    expect(sb).toMatchObject({
      documents: sa.documents,
      fingerprints: sa.fingerprints,
      characters: sa.characters,
    });
  });
});

describe('local index', () => {
  it('adds incrementally across segments, merges them, and survives reopening', async () => {
    const dir = makeTempDir('local');
    try {
      const index = await openIndex(dir, { create: true });
      // Six single-document additions: more than MAX_SEGMENTS segments, so a merge runs.
      for (const d of [...LIBRARY, { id: 'extra', title: null, text: OWN_SAME_TOPIC }])
        await index.addDocuments([d]);
      expect(await index.removeDocument('extra')).toBe(true);
      const before = await checkText(index, THESIS);
      const stats = await index.stats();
      expect(stats.documents).toBe(LIBRARY.length);
      expect(Number(stats.details.segments)).toBeLessThanOrEqual(4);
      await index.compact();
      expect((await index.stats()).details.segments).toBe(1);
      expect((await index.stats()).removed).toBe(0);
      await index.close();
      const reopened = await openIndex(dir);
      expect(await checkText(reopened, THESIS)).toEqual(before);
      await reopened.close();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('gives the same postings, texts and reports with them in memory, on disk, or split between them', async () => {
    const dir = makeTempDir('memory');
    try {
      const writer = await openIndex(dir, { create: true, memoryBytes: 0 });
      await addInTwoBatches(writer); // two segments
      await writer.removeDocument(LIBRARY[1]!.id);
      await writer.close();
      const hashes = Uint32Array.from(
        new Set(
          LIBRARY.flatMap((d) => [...getIndexFingerprints(THESIS + d.text, { k: 5, minRun: 13 }).hashes]),
        ),
      );
      const onDisk = await openIndex(dir, { memoryBytes: 0 });
      const inMemory = await openIndex(dir);
      const firstSegmentOnly = await openIndex(dir, { memoryBytes: 12 * 4000 });
      const expected = await onDisk.lookup(hashes);
      expect(expected.hashes.length).toBeGreaterThan(100);
      const allDocNos = [...new Set(expected.docNos)];
      const texts = await onDisk.getDocuments(allDocNos);
      expect(texts.map((d) => d.text)).toContain(LIBRARY[0]!.text);
      for (const index of [inMemory, firstSegmentOnly]) {
        expect(await index.lookup(hashes)).toEqual(expected);
        expect(await index.getDocuments(allDocNos)).toEqual(texts);
        expect(await checkText(index, THESIS)).toEqual(await checkText(onDisk, THESIS));
      }
      for (const index of [onDisk, inMemory, firstSegmentOnly]) await index.close();
      // One segment in memory takes the fast path; with options it still agrees with the disk.
      const writer2 = await openIndex(dir, { memoryBytes: 0 });
      await writer2.compact();
      await writer2.close();
      const [disk1, memory1] = [await openIndex(dir, { memoryBytes: 0 }), await openIndex(dir)];
      const docNos = [...new Set(expected.docNos)].slice(0, 2);
      for (const options of [{ maxPostings: 1 }, { docNos }, {}]) {
        expect(await memory1.lookup(hashes, options)).toEqual(await disk1.lookup(hashes, options));
      }
      expect((await memory1.lookup(hashes, { maxPostings: 1 })).frequent!.length).toBeGreaterThan(0);
      await disk1.close();
      await memory1.close();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('lets one process write at a time and takes over a lock left by a dead one', async () => {
    const dir = makeTempDir('lock');
    try {
      const index = await openIndex(dir, { create: true });
      const lock = `${dir}/write.lock`;
      fs.writeFileSync(lock, String(process.ppid)); // a live process
      await expect(index.addDocuments(LIBRARY.slice(0, 1))).rejects.toMatchObject({ code: 'index_locked' });
      fs.writeFileSync(lock, '2147483646'); // no such process
      await index.addDocuments(LIBRARY.slice(0, 1));
      expect(fs.existsSync(lock)).toBe(false);
      // A second handle sees what the first one committed before writing itself.
      const other = await openIndex(dir);
      await index.addDocuments(LIBRARY.slice(1, 2));
      await other.addDocuments(LIBRARY.slice(2, 3));
      expect((await other.stats()).documents).toBe(3);
      await index.close();
      await other.close();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses a missing index with a typed error', async () => {
    await expect(openIndex('/nonexistent/simcheck-index')).rejects.toMatchObject({ code: 'index_not_found' });
  });
});

describe('the PostgreSQL index in a database without its tables', () => {
  it('is refused with a message that names the migration (the tables come from packages/db)', async () => {
    const db = new PGlite();
    try {
      const opening = createPgIndex(db as unknown as Queryable);
      await expect(opening).rejects.toMatchObject({ code: 'database_error' });
      await expect(opening).rejects.toThrow(/数据库迁移/);
      // nothing was created
      const tables = await db.query(
        `SELECT count(*)::int AS n FROM pg_tables WHERE tablename LIKE 'simcheck%'`,
      );
      expect(tables.rows).toEqual([{ n: 0 }]);
    } finally {
      await db.close();
    }
  }, 60_000);
});
