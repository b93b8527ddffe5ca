import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { createDb, type DbHandle, migrate, sql } from '@kyfw/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runLibraryImport } from '../../src/cli/library-import.ts';
import { type Library, openLibrary } from '../../src/modules/check/library/library.ts';
import { importSmallLibrary } from '../small-library.ts';
import { buildCheckApp, type CheckTestApp, checkPaidPaper, newUser } from './check-helper.ts';
import { buildDocx, buildThesis, buildTxt, libraryText } from './fixtures.ts';

// npm run library:import: JSON lines (.gz too) and folders of papers, resumable, skipping duplicate
// texts, in both modes; a running server sees what was imported; and a user's paper joins the
// library only when the user opted in.

const tmp = mkdtempSync(path.join(os.tmpdir(), 'kyfw-check-library-'));
const repoRoot = path.resolve(import.meta.dirname, '../../../..');

afterAll(() => {
  rmSync(tmp, { recursive: true, force: true });
});

function jsonl(records: unknown[]): string {
  return `${records.map((r) => (typeof r === 'string' ? r : JSON.stringify(r))).join('\n')}\n`;
}

const records = [
  {
    id: 1,
    title: '土壤微生物研究',
    authors: ['李四', '王五'],
    year: 2020,
    journal: '土壤学报',
    text: libraryText(501),
  },
  { id: 2, title: '作物产量模型', author: '赵六；钱七', date: '2019-05-01', abstract: libraryText(502) },
  { id: 3, title: null, text: libraryText(503) },
  // The same text as record 1, with different whitespace: a duplicate.
  { id: 4, title: '重复稿', text: libraryText(501).replace(/\n/g, '\n\n ') },
  'not json at all',
  { id: 5, title: '没有正文' },
  { id: 6, title: '田间试验', text: libraryText(506) },
];

type Mode = {
  name: string;
  open: () => Promise<{
    config: Parameters<typeof runLibraryImport>[1];
    library: () => Promise<Library>;
    close: () => Promise<void>;
  }>;
};

const modes: Mode[] = [
  {
    name: 'local index (embedded)',
    async open() {
      const dir = path.join(tmp, `index-${Math.random().toString(36).slice(2)}`);
      const config = { databaseUrl: undefined, check: { indexDir: dir } } as Parameters<
        typeof runLibraryImport
      >[1];
      return { config, library: () => openLibrary({ kind: 'local', dir }), close: async () => {} };
    },
  },
];

// CI's PostgreSQL run (scripts/test-pg.sh) sets DATABASE_URL: the same tests then also run on the
// PostgreSQL index and catalogue, in a throwaway database.
const adminUrl = process.env.DATABASE_URL;
if (adminUrl) {
  modes.push({
    name: 'PostgreSQL (DATABASE_URL)',
    async open() {
      const name = `kyfw_lib_${Math.random().toString(36).slice(2, 10)}`;
      const admin = await createDb({ databaseUrl: adminUrl, poolSize: 1 });
      await sql`create database ${sql.raw(name)}`.execute(admin.db);
      const url = new URL(adminUrl);
      url.pathname = `/${name}`;
      let handle: DbHandle | undefined;
      const config = {
        databaseUrl: url.toString(),
        check: { indexDir: path.join(tmp, 'unused') },
      } as Parameters<typeof runLibraryImport>[1];
      return {
        config,
        async library() {
          handle ??= await createDb({ databaseUrl: url.toString(), poolSize: 2 });
          await migrate(handle.db);
          return openLibrary({ kind: 'postgres', databaseUrl: url.toString(), db: handle.db });
        },
        async close() {
          await handle?.close();
          await sql`drop database if exists ${sql.raw(name)} with (force)`.execute(admin.db);
          await admin.close();
        },
      };
    },
  });
}

describe.each(modes)('library import: $name', (mode) => {
  let env: Awaited<ReturnType<Mode['open']>>;
  const lines: string[] = [];
  const log = (line: string) => lines.push(line);

  beforeAll(async () => {
    env = await mode.open();
  });
  afterAll(async () => {
    await env.close();
  });

  it('JSON lines (.gz): resumable, duplicates and bad lines skipped, metadata kept', async () => {
    const file = path.join(tmp, `papers-${Math.random().toString(36).slice(2)}.jsonl.gz`);
    writeFileSync(file, gzipSync(jsonl(records)));
    // An interrupted first run: only the first two records got in.
    const first = await runLibraryImport({ input: file, limit: 2 }, env.config, log);
    expect(first).toMatchObject({ read: 2, added: 2, skippedExisting: 0, skippedDuplicates: 0 });
    const second = await runLibraryImport({ input: file, batch: 2 }, env.config, log);
    expect(second).toMatchObject({ read: 5, added: 2, skippedExisting: 2, skippedDuplicates: 1 });
    expect(lines.some((l) => l.includes('第 5 行') && l.includes('不是合法的 JSON'))).toBe(true);
    expect(lines.some((l) => l.includes('第 6 行') && l.includes('缺少 id 或正文'))).toBe(true);
    expect(lines.at(-1)).toMatch(/^完成：.*比对库现有 4 篇/);
    // Once more: nothing new.
    const third = await runLibraryImport({ input: file }, env.config, log);
    expect(third).toMatchObject({ added: 0, skippedExisting: 4, skippedDuplicates: 1 });

    const library = await env.library();
    try {
      expect(await library.countDocuments()).toBe(4);
      const stem = path.basename(file).replace(/\.jsonl\.gz$/, '');
      const meta = await library.describeSources([`${stem}:1`, `${stem}:2`, `${stem}:4`]);
      expect(meta.get(`${stem}:1`)).toMatchObject({
        title: '土壤微生物研究',
        authors: ['李四', '王五'],
        year: 2020,
        source: '土壤学报',
        collection: 'journal',
      });
      // A record naming no source has none: never the import file's name.
      expect(meta.get(`${stem}:2`)).toMatchObject({ authors: ['赵六', '钱七'], year: 2019, source: null });
      expect(meta.has(`${stem}:4`)).toBe(false);
      // What was imported is found by a check.
      const { report } = await library.check(
        `这是一段新写的引言。${libraryText(506).slice(0, 200)}这是结尾。`,
      );
      expect(report.sources.map((s) => s.sourceId)).toEqual([`${stem}:6`]);
    } finally {
      await library.close();
    }
  });

  it('a folder of papers: .docx and .txt with sidecar metadata, unreadable files reported and skipped', async () => {
    const folder = path.join(tmp, `folder-${Math.random().toString(36).slice(2)}`);
    mkdirSync(path.join(folder, 'sub'), { recursive: true });
    writeFileSync(
      path.join(folder, 'a.docx'),
      buildDocx([{ text: '第1章 引言', heading: 1 }, { text: libraryText(511) }]),
    );
    writeFileSync(
      path.join(folder, 'a.json'),
      JSON.stringify({ title: '一篇学位论文', authors: '孙八', year: 2018, source: '某大学' }),
    );
    writeFileSync(path.join(folder, 'sub', 'b.txt'), buildTxt(libraryText(512)));
    writeFileSync(path.join(folder, 'sub', 'broken.pdf'), '%PDF-1.4 garbage');
    writeFileSync(path.join(folder, 'notes.md'), 'ignored');
    const first = await runLibraryImport({ input: folder, collection: 'thesis' }, env.config, log);
    expect(first).toMatchObject({ read: 2, added: 2 });
    expect(lines.at(-1)).toMatch(/学位论文库 2 篇/);
    expect(lines.some((l) => l.startsWith('跳过 sub/broken.pdf'))).toBe(true);
    const again = await runLibraryImport({ input: folder }, env.config, log);
    expect(again).toMatchObject({ added: 0, skippedExisting: 2 });
    const library = await env.library();
    try {
      const meta = await library.describeSources(['a.docx', 'sub/b.txt']);
      expect(meta.get('a.docx')).toMatchObject({
        title: '一篇学位论文',
        authors: ['孙八'],
        year: 2018,
        source: '某大学',
        collection: 'thesis',
      });
      expect(meta.get('sub/b.txt')).toMatchObject({ title: 'b', source: null, collection: 'thesis' });
    } finally {
      await library.close();
    }
  });
});

describe('the npm script', () => {
  it('runs as a command: progress on stderr, exit 0; usage errors exit 2', () => {
    const dataDir = path.join(tmp, 'cli-data');
    const file = path.join(tmp, 'cli.jsonl');
    writeFileSync(file, jsonl(records));
    const env = { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' };
    const ok = spawnSync(process.execPath, ['apps/server/src/cli/library-import.ts', file], {
      cwd: repoRoot,
      env,
      encoding: 'utf8',
    });
    expect(ok.status).toBe(0);
    expect(ok.stderr).toMatch(/完成：读取 5 篇，新增 4 篇/);
    const missing = spawnSync(process.execPath, ['apps/server/src/cli/library-import.ts'], {
      cwd: repoRoot,
      env,
      encoding: 'utf8',
    });
    expect(missing.status).toBe(2);
    expect(missing.stderr).toMatch(/用法/);
    const nowhere = spawnSync(
      process.execPath,
      ['apps/server/src/cli/library-import.ts', path.join(tmp, 'nope.jsonl')],
      { cwd: repoRoot, env, encoding: 'utf8' },
    );
    expect(nowhere.status).toBe(2);
    expect(nowhere.stderr).toMatch(/找不到/);
    const badCollection = spawnSync(
      process.execPath,
      ['apps/server/src/cli/library-import.ts', file, '--collection', 'books'],
      { cwd: repoRoot, env, encoding: 'utf8' },
    );
    expect(badCollection.status).toBe(2);
    expect(badCollection.stderr).toMatch(/--collection 须为 journal、thesis、web 之一/);
  });
});

describe('with the server running', () => {
  let t: CheckTestApp;
  let user: { token: string; userId: string };

  beforeAll(async () => {
    t = await buildCheckApp();
    await importSmallLibrary(t);
    user = await newUser(t);
  });
  afterAll(async () => {
    await t.close();
  });

  const checkPaper = (text: string, fields: Record<string, string> = {}) =>
    checkPaidPaper(t, user.token, text, fields);

  it('an import made while the server runs is used by the next check', async () => {
    const text = libraryText(521);
    const before = await checkPaper(text.slice(0, 400));
    expect(before.report.sources).toEqual([]);
    const file = path.join(tmp, 'live.jsonl');
    writeFileSync(file, jsonl([{ id: 'live', title: '运行中导入', text }]));
    await runLibraryImport({ input: file }, t.config, () => {});
    const after = await checkPaper(text.slice(0, 400));
    expect(after.report.sources.map((s) => s.title)).toEqual(['运行中导入']);
  });

  it('a paper joins the library only when its author opted in', async () => {
    const paperA = buildThesis({ seed: 601, chars: 3000 }).text;
    const paperB = buildThesis({ seed: 602, chars: 3000 }).text;
    // A: no opt-in (the default). Checking the same text again finds nothing from A.
    const a = await checkPaper(paperA);
    const a2 = await checkPaper(paperA);
    expect(a2.report.sources).toEqual([]);
    const rowA = await t.db
      .selectFrom('checks')
      .selectAll()
      .where('id', '=', a.orderId)
      .executeTakeFirstOrThrow();
    expect(rowA).toMatchObject({ add_to_library: false, library_doc_id: null });
    // B: opted in. The paper itself was checked before it joined (it did not find itself) ...
    const b = await checkPaper(paperB, { addToLibrary: 'true' });
    expect(b.report.sources).toEqual([]);
    const rowB = await t.db
      .selectFrom('checks')
      .selectAll()
      .where('id', '=', b.orderId)
      .executeTakeFirstOrThrow();
    expect(rowB).toMatchObject({ add_to_library: true, library_doc_id: `upload:${b.orderId}` });
    // ... and a later check of the same text finds it, labelled as a user's authorised upload.
    const b2 = await checkPaper(paperB);
    expect(b2.report.sources).toHaveLength(1);
    expect(b2.report.sources[0]).toMatchObject({
      id: `upload:${b.orderId}`,
      source: '用户上传论文（已授权入库）',
    });
    expect(b2.report.figures.ratio).toBeGreaterThan(0.9);
  });
});
