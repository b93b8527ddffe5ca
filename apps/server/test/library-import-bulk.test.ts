import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createDb, migrate, sql } from '@kyfw/db';
import { checkText } from '@kyfw/simcheck';
import { createPgIndex } from '@kyfw/simcheck/pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runLibraryImport } from '../src/cli/library-import.ts';

// npm run library:import on PostgreSQL (DATABASE_URL, as scripts/test-pg.sh sets it): an import
// into an empty library is a bulk load (fingerprint indexes built at the end), and the rerun of an
// interrupted one resumes it.

const adminUrl = process.env.DATABASE_URL;
const tmp = mkdtempSync(path.join(os.tmpdir(), 'kyfw-import-bulk-'));

const CHARS = '研究方法数据分析结果表明系统模型实验土壤教育经济医学发展影响因素显著提高作用机制过程';
function text(n: number): string {
  let seed = n * 7919 + 17;
  let out = '';
  for (let i = 0; i < 300; i++) {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    out += CHARS[seed % CHARS.length];
  }
  return out;
}
const records = Array.from({ length: 30 }, (_, i) => ({ id: i + 1, title: `文献${i + 1}`, text: text(i) }));

describe.skipIf(!adminUrl)('library import into PostgreSQL: bulk load', () => {
  let url: string;
  let name: string;
  let admin: Awaited<ReturnType<typeof createDb>>;
  const config = () =>
    ({ databaseUrl: url, check: { indexDir: path.join(tmp, 'unused') } }) as Parameters<
      typeof runLibraryImport
    >[1];

  beforeAll(async () => {
    name = `kyfw_bulk_${Math.random().toString(36).slice(2, 10)}`;
    admin = await createDb({ databaseUrl: adminUrl!, poolSize: 1 });
    await sql`create database ${sql.raw(name)}`.execute(admin.db);
    const u = new URL(adminUrl!);
    u.pathname = `/${name}`;
    url = u.toString();
    // The index's tables come from the migrations (0012), as at a start of the service.
    const handle = await createDb({ databaseUrl: url, poolSize: 1 });
    await migrate(handle.db);
    await handle.close();
  });
  afterAll(async () => {
    await sql`drop database if exists ${sql.raw(name)} with (force)`.execute(admin.db);
    await admin.close();
    rmSync(tmp, { recursive: true, force: true });
  });

  async function state() {
    const handle = await createDb({ databaseUrl: url, poolSize: 1 });
    try {
      const r = await sql<{ lookup_idx: boolean; doc_idx: boolean; marked: boolean; documents: number }>`
        SELECT (to_regclass('simcheck_fingerprints_lookup_idx') IS NOT NULL) AS lookup_idx,
               (to_regclass('simcheck_fingerprints_doc_idx') IS NOT NULL) AS doc_idx,
               EXISTS (SELECT 1 FROM simcheck_meta WHERE key = 'bulk_load') AS marked,
               (SELECT count(*)::int FROM simcheck_documents) AS documents`.execute(handle.db);
      return r.rows[0];
    } finally {
      await handle.close();
    }
  }

  it('an interrupted first import is resumed by running it again, and ends with the indexes built', async () => {
    const file = path.join(tmp, 'papers.jsonl');
    writeFileSync(file, `${records.map((r) => JSON.stringify(r)).join('\n')}\n`);
    const stem = 'papers';
    // An importer that died after its index had taken 12 documents (before the catalogue did).
    const dead = await createPgIndex(url);
    expect(await dead.beginBulkLoad()).toBe(true);
    await dead.addDocuments(
      records.slice(0, 12).map((r) => ({ id: `${stem}:${r.id}`, title: r.title, text: r.text })),
    );
    await dead.close();
    expect(await state()).toEqual({ lookup_idx: false, doc_idx: false, marked: true, documents: 12 });

    const lines: string[] = [];
    const summary = await runLibraryImport({ input: file, batch: 8 }, config(), (l) => lines.push(l));
    expect(summary).toMatchObject({ read: 30, added: 30, skippedExisting: 0 });
    expect(lines.some((l) => l.includes('批量导入'))).toBe(true);
    expect(lines.some((l) => l.startsWith('指纹索引已建立'))).toBe(true);
    expect(await state()).toEqual({ lookup_idx: true, doc_idx: true, marked: false, documents: 30 });

    // A later import into the non-empty library: no bulk load, indexes untouched.
    const again: string[] = [];
    const second = await runLibraryImport({ input: file }, config(), (l) => again.push(l));
    expect(second).toMatchObject({ added: 0, skippedExisting: 30 });
    expect(again.some((l) => l.includes('批量导入'))).toBe(false);
    expect(await state()).toEqual({ lookup_idx: true, doc_idx: true, marked: false, documents: 30 });

    // Each document is there once, whole, and found by a check of its own text.
    const index = await createPgIndex(url);
    try {
      expect((await index.stats()).documents).toBe(30);
      const report = await checkText(index, records[3]!.text);
      expect(report.sources[0]?.sourceId).toBe(`${stem}:4`);
      expect(report.ratio).toBeGreaterThan(0.9);
    } finally {
      await index.close();
    }
  });
});
