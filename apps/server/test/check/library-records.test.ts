import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { createDb, type DbHandle, migrate, sql } from '@kyfw/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runLibraryImport } from '../../src/cli/library-import.ts';
import type { Catalog, CatalogEntry } from '../../src/modules/check/library/catalog.ts';
import { createPgCatalog } from '../../src/modules/check/library/library.repo.ts';
import { openLibrary } from '../../src/modules/check/library/library.ts';
import { CATALOG_FILE, openLocalCatalog } from '../../src/modules/check/library/local-catalog.ts';
import { libraryText } from './fixtures.ts';

// The library keeps each record's abstract and keywords when the imported source has them, and the
// writer's reference search looks in the title, the keywords and the abstract — in both catalogues
// (the local JSON lines and the PostgreSQL table, here on PGlite). Records imported before these
// fields existed keep working.

const tmp = mkdtempSync(path.join(os.tmpdir(), 'kyfw-library-records-'));
afterAll(() => {
  rmSync(tmp, { recursive: true, force: true });
});

function entry(id: string, fields: Partial<CatalogEntry>): CatalogEntry {
  return {
    id,
    title: null,
    authors: [],
    year: null,
    source: null,
    discipline: null,
    abstract: null,
    keywords: [],
    collection: 'journal',
    contentHash: createHash('sha256').update(id).digest('hex'),
    chars: 100,
    origin: 'import',
    addedAt: '2026-01-01T00:00:00.000Z',
    ...fields,
  };
}

describe('library import keeps abstracts and keywords', () => {
  it('a JSON lines record with abstract and keywords is found by a word only in either', async () => {
    const file = path.join(tmp, 'papers.jsonl.gz');
    const records = [
      {
        id: 1,
        title: '飞行器姿态控制器设计',
        abstract: '采用修正的罗德里格斯参数建立姿态模型，并用平方和方法设计镇定控制器。',
        keywords: ['李雅普诺夫函数', '大角度机动'],
        discipline: '兵器科学与技术',
      },
      // Keywords as one string, text besides the abstract.
      {
        id: 2,
        title: '水运工程项目管理',
        text: libraryText(601),
        abstract: '从组织、质量与成本三方面探讨全过程管理。',
        keywords: '全过程管理；水运工程',
      },
      // No abstract, no keywords: still imported, found by its title only.
      { id: 3, title: '土壤微生物群落研究', text: libraryText(602) },
    ];
    writeFileSync(file, gzipSync(`${records.map((r) => JSON.stringify(r)).join('\n')}\n`));
    const dir = path.join(tmp, 'index');
    const config = { databaseUrl: undefined, check: { indexDir: dir } } as Parameters<
      typeof runLibraryImport
    >[1];
    const summary = await runLibraryImport({ input: file }, config, () => {});
    expect(summary).toMatchObject({ added: 3 });

    const library = await openLibrary({ kind: 'local', dir });
    try {
      const meta = await library.describeSources(['papers:1', 'papers:2', 'papers:3']);
      expect(meta.get('papers:1')).toMatchObject({
        abstract: '采用修正的罗德里格斯参数建立姿态模型，并用平方和方法设计镇定控制器。',
        keywords: ['李雅普诺夫函数', '大角度机动'],
      });
      expect(meta.get('papers:2')).toMatchObject({
        abstract: '从组织、质量与成本三方面探讨全过程管理。',
        keywords: ['全过程管理', '水运工程'],
      });
      expect(meta.get('papers:3')).toMatchObject({ abstract: null, keywords: [] });
      const titles = async (terms: string[]) => (await library.searchRecords(terms, 10)).map((e) => e.title);
      expect(await titles(['罗德里格斯'])).toEqual(['飞行器姿态控制器设计']);
      expect(await titles(['李雅普诺夫'])).toEqual(['飞行器姿态控制器设计']);
      expect(await titles(['成本'])).toEqual(['水运工程项目管理']);
      expect(await titles(['微生物'])).toEqual(['土壤微生物群落研究']);
      expect(await titles(['不存在的词'])).toEqual([]);
    } finally {
      await library.close();
    }
  });

  it('a folder paper takes abstract and keywords from its sidecar .json', async () => {
    const folder = path.join(tmp, 'folder');
    mkdirSync(folder, { recursive: true });
    writeFileSync(path.join(folder, 'a.txt'), libraryText(611));
    writeFileSync(
      path.join(folder, 'a.json'),
      JSON.stringify({ title: '一篇论文', abstract: '研究城市热岛效应。', keywords: ['遥感反演'] }),
    );
    const dir = path.join(tmp, 'index-folder');
    const config = { databaseUrl: undefined, check: { indexDir: dir } } as Parameters<
      typeof runLibraryImport
    >[1];
    await runLibraryImport({ input: folder }, config, () => {});
    const library = await openLibrary({ kind: 'local', dir });
    try {
      expect((await library.searchRecords(['遥感'], 5)).map((e) => e.id)).toEqual(['a.txt']);
      expect((await library.searchRecords(['热岛'], 5)).map((e) => e.id)).toEqual(['a.txt']);
    } finally {
      await library.close();
    }
  });
});

/** The ranking both catalogues share, on the given catalogue. */
async function expectRanking(catalog: Catalog) {
  await catalog.add([
    entry('abstract-only', { title: '城市更新研究', abstract: '讨论了社区养老设施的布局。', year: 2023 }),
    entry('keyword', { title: '老龄化社会的公共服务', keywords: ['社区养老'], year: 2019 }),
    entry('title', { title: '社区养老服务供给研究', year: 2018 }),
    entry('upload', { title: '社区养老的一篇学生论文', origin: 'upload', collection: 'user' }),
    entry('other', { title: '高熵合金', abstract: '力学性能。' }),
  ]);
  const ids = (await catalog.searchRecords(['社区养老'], 10)).map((e) => e.id);
  // Title before keywords before abstract; a user's upload is never offered.
  expect(ids).toEqual(['title', 'keyword', 'abstract-only']);
  // Two terms: one in the title and one in the abstract outrank one in the title.
  await catalog.add([entry('both', { title: '社区养老的实践', abstract: '以上海为例。', year: 2010 })]);
  expect((await catalog.searchRecords(['社区养老', '上海'], 10)).map((e) => e.id)[0]).toBe('both');
  // A term containing LIKE's wildcards is taken literally.
  expect(await catalog.searchRecords(['%'], 10)).toEqual([]);
}

describe('reference search ranks title, keywords, abstract', () => {
  it('in the local catalogue, and a catalogue written before abstracts still works', async () => {
    const dir = path.join(tmp, 'old-catalog');
    mkdirSync(dir, { recursive: true });
    // A line as written before abstracts and keywords (and collections) were kept.
    const {
      abstract: _a,
      keywords: _k,
      collection: _c,
      discipline: _d,
      ...old
    } = entry('old', {
      title: '旧记录：社区养老',
    });
    writeFileSync(path.join(dir, CATALOG_FILE), `${JSON.stringify(old)}\n`);
    const catalog = openLocalCatalog(dir);
    const found = await catalog.searchRecords(['社区养老'], 10);
    expect(found).toMatchObject([{ id: 'old', abstract: null, keywords: [], collection: 'journal' }]);
    await catalog.remove('old');
    await expectRanking(catalog);
  });

  // PGlite; with DATABASE_URL (scripts/test-pg.sh) a throwaway database on that server.
  describe('in the PostgreSQL catalogue (migrated database)', () => {
    let handle: DbHandle;
    let dropDatabase = async () => {};
    beforeAll(async () => {
      const adminUrl = process.env.DATABASE_URL;
      if (adminUrl) {
        const name = `kyfw_rec_${Math.random().toString(36).slice(2, 10)}`;
        const admin = await createDb({ databaseUrl: adminUrl, poolSize: 1 });
        await sql`create database ${sql.raw(name)}`.execute(admin.db);
        const url = new URL(adminUrl);
        url.pathname = `/${name}`;
        handle = await createDb({ databaseUrl: url.toString(), poolSize: 1 });
        dropDatabase = async () => {
          await sql`drop database if exists ${sql.raw(name)} with (force)`.execute(admin.db);
          await admin.close();
        };
      } else handle = await createDb({ memory: true });
      await migrate(handle.db);
    });
    afterAll(async () => {
      await handle.close();
      await dropDatabase();
    });

    it('ranks the same way, and rows from before migration 0048 keep working', async () => {
      // A row inserted without the new columns (as the import did before): defaults apply.
      await sql`insert into check_library_documents (id, title, content_hash, chars, origin)
        values ('old', '旧记录：社区养老', ${'f'.repeat(64)}, 10, 'import')`.execute(handle.db);
      const catalog = createPgCatalog(handle.db);
      expect(await catalog.searchRecords(['社区养老'], 10)).toMatchObject([
        { id: 'old', abstract: null, keywords: [] },
      ]);
      await catalog.remove('old');
      await expectRanking(catalog);
      expect((await catalog.get(['keyword'])).get('keyword')).toMatchObject({ keywords: ['社区养老'] });
    });
  });
});
