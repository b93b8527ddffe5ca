import { gzipSync } from 'node:zlib';
import { ErrorCode, type LibraryDocument, type LibraryImport, type LibraryStats } from '@kyfw/contracts';
import { zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorker } from '../../src/jobs/index.ts';
import { createStaffService } from '../../src/modules/console/staff.service.ts';
import { libraryImportJob } from '../../src/modules/library/library.module.ts';
import { buildCheckApp, type CheckTestApp, checkPaidPaper, newUser } from '../check/check-helper.ts';
import { buildDocx, buildThesis, buildTxt, libraryText } from '../check/fixtures.ts';
import { multipart } from '../commission/commission-helper.ts';
import { consoleCalls } from '../console/console-helper.ts';
import type { Envelope } from '../orders/orders-helper.ts';
import { importSmallLibrary } from '../small-library.ts';

// The console's comparison-library screen (issue 15; docs/api/operator.md, 比对库): statistics by
// collection, imports of .jsonl / .jsonl.gz / .zip as durable jobs (a bad file says why in Chinese
// and adds nothing), search, removal (a removed document stops matching), the papers users added by
// consent; admin reads and writes, support reads, the other roles are refused; all audited.

let t: CheckTestApp;
const cookies = new Map<string, string>();
const ROLES = ['admin', 'support', 'finance', 'fulfilment', 'editor'] as const;

beforeAll(async () => {
  t = await buildCheckApp();
  await importSmallLibrary(t);
  const staff = createStaffService({ db: t.db, scryptCost: 10, now: t.clock.now });
  for (const role of ROLES)
    cookies.set(role, await consoleCalls(t).cookieOf(await staff.create({ username: `${role}lib`, role })));
});
afterAll(() => t.close());

async function post<T>(role: string | null, path: string, body: unknown = {}): Promise<Envelope<T>> {
  const res = await t.app.inject({
    method: 'POST',
    url: `/kyfw/web/v1/admin/library${path}`,
    headers: { 'content-type': 'application/json', ...(role ? { cookie: cookies.get(role)! } : {}) },
    payload: JSON.stringify(body),
  });
  return res.json() as Envelope<T>;
}

async function importFile(
  role: string,
  file: { name: string; bytes: Uint8Array } | null,
  fields: Record<string, string> = { collection: 'thesis' },
): Promise<Envelope<LibraryImport>> {
  const body = multipart(fields, file);
  const res = await t.app.inject({
    method: 'POST',
    url: '/kyfw/web/v1/admin/library/import',
    headers: { cookie: cookies.get(role)!, 'content-type': body.contentType },
    payload: body.payload,
  });
  return res.json() as Envelope<LibraryImport>;
}

/** Runs the queued import jobs to their end (a worker round). */
async function runImports() {
  const worker = createWorker({ db: t.db, definitions: [libraryImportJob], services: t.root.services });
  while ((await worker.tick()).length > 0);
  await worker.stop();
}

async function importOf(importId: string): Promise<LibraryImport> {
  const list = await post<{ list: LibraryImport[] }>('admin', '/imports');
  expect(list.code).toBe(0);
  return list.data.list.find((i) => i.importId === importId)!;
}

async function stats(): Promise<LibraryStats> {
  const res = await post<LibraryStats>('admin', '/stats');
  expect(res.code).toBe(0);
  return res.data;
}

const documents = async () =>
  Object.fromEntries((await stats()).collections.map((c) => [c.collection, c.documents]));

const jsonl = (records: object[]) => Buffer.from(`${records.map((r) => JSON.stringify(r)).join('\n')}\n`);

async function auditOf(action: string) {
  return t.db
    .selectFrom('audit_log')
    .selectAll()
    .where('action', '=', action)
    .orderBy('id', 'desc')
    .execute();
}

describe('statistics', () => {
  it('shows documents, characters and the last addition per collection, and which goods are on sale', async () => {
    const s = await stats();
    expect(s.collections.map((c) => [c.collection, c.name, c.documents])).toEqual([
      ['journal', '学术期刊库', 5],
      ['thesis', '学位论文库', 0],
      ['web', '互联网资源库', 0],
      ['user', '用户授权论文库', 0],
    ]);
    expect(s.collections[0]!.chars).toBeGreaterThan(500);
    expect(s.collections[0]!.lastAddedAt).not.toBeNull();
    expect(s.collections[1]!.lastAddedAt).toBeNull();
    expect(s.documents).toBe(5);
    expect(s.goods.find((g) => g.goodsId === 'check_undergrad')).toMatchObject({
      onSale: true,
      reason: null,
    });
    expect(s.goods.find((g) => g.goodsId === 'check_master')).toMatchObject({ onSale: false });
    expect(s.goods.find((g) => g.goodsId === 'check_master')?.reason).toContain('学位论文库');
  });
});

describe('roles', () => {
  it('support reads; finance, fulfilment and editor are refused everything; nobody without a session', async () => {
    for (const path of ['/stats', '/imports', '/search']) {
      expect((await post('support', path)).code, path).toBe(0);
      for (const role of ['finance', 'fulfilment', 'editor']) {
        const res = await post(role, path);
        expect(res.code, `${role} ${path}`).toBe(ErrorCode.FORBIDDEN);
        expect(res.message).toMatch(/无权/);
      }
      expect((await post(null, path)).code).toBe(ErrorCode.UNAUTHORIZED);
    }
    // Writing is the admin's: support is refused too, and nothing changes.
    const before = await documents();
    for (const role of ['support', 'finance', 'fulfilment', 'editor']) {
      expect((await post(role, '/remove', { id: 'small-library:1' })).code, role).toBe(ErrorCode.FORBIDDEN);
      const res = await importFile(role, {
        name: 'a.jsonl',
        bytes: jsonl([{ id: 1, text: libraryText(1, 300) }]),
      });
      expect(res.code, role).toBe(ErrorCode.FORBIDDEN);
    }
    expect(await documents()).toEqual(before);
    expect(await t.db.selectFrom('library_imports').selectAll().execute()).toEqual([]);
    // The refusals are in the audit log, with who and why.
    const refused = (await auditOf('library.remove')).filter((r) => r.outcome === 'refused');
    expect(refused.map((r) => r.role).sort()).toEqual(['editor', 'finance', 'fulfilment', 'support']);
    expect((await auditOf('library.import')).filter((r) => r.outcome === 'refused')).toHaveLength(4);
  });
});

describe('import', () => {
  it('imports a .jsonl into the thesis collection as a job: progress, summary, statistics, 硕博 on sale, audited', async () => {
    const file = jsonl([
      { id: 'a', title: '某硕士学位论文一', authors: ['韩梅'], text: libraryText(7001, 900) },
      { id: 'b', title: '某博士学位论文二', author: '许峰', text: libraryText(7002, 900) },
      { id: 'c', title: '某硕士学位论文三', text: libraryText(7003, 900) },
    ]);
    const started = await importFile('admin', { name: '学位论文2024.jsonl', bytes: file });
    expect(started.code).toBe(0);
    expect(started.data).toMatchObject({
      fileName: '学位论文2024.jsonl',
      collection: 'thesis',
      status: 'queued',
      progress: 0,
      username: 'adminlib',
    });
    await runImports();
    const done = await importOf(started.data.importId);
    expect(done).toMatchObject({
      status: 'succeeded',
      progress: 100,
      error: null,
      summary: { read: 3, added: 3, skippedExisting: 0, skippedDuplicates: 0, skippedInvalid: 0 },
    });
    expect((await documents()).thesis).toBe(3);
    const s = await stats();
    expect(s.goods.find((g) => g.goodsId === 'check_master')).toMatchObject({ onSale: true });
    const audit = (await auditOf('library.import')).find((r) => r.outcome === 'ok')!;
    expect(audit).toMatchObject({ username: 'adminlib', role: 'admin', target: started.data.importId });
    // The same file again: nothing new (ids already in), and the summary says so.
    const again = await importFile('admin', { name: '学位论文2024.jsonl', bytes: file });
    await runImports();
    expect((await importOf(again.data.importId)).summary).toMatchObject({ added: 0, skippedExisting: 3 });
  });

  it('imports a .jsonl.gz and a .zip of papers with .json sidecars; search finds them by title, author and id', async () => {
    const gz = gzipSync(jsonl([{ id: 1, title: '互联网资源甲', text: libraryText(7101, 800) }]));
    const a = await importFile('admin', { name: 'web.jsonl.gz', bytes: gz }, { collection: 'web' });
    expect(a.code).toBe(0);
    const zip = zipSync({
      'papers/论文甲.txt': buildTxt(libraryText(7201, 800)),
      'papers/论文甲.json': Buffer.from(
        JSON.stringify({ title: '压缩包中的论文甲', authors: ['柳青'], year: 2021 }),
      ),
      'papers/sub/论文乙.docx': buildDocx([{ text: libraryText(7202, 800) }]),
      'readme.md': Buffer.from('not a paper'),
    });
    const b = await importFile('admin', { name: 'batch.zip', bytes: zip }, { collection: 'journal' });
    expect(b.code).toBe(0);
    await runImports();
    expect(await importOf(a.data.importId)).toMatchObject({ status: 'succeeded', summary: { added: 1 } });
    expect(await importOf(b.data.importId)).toMatchObject({ status: 'succeeded', summary: { added: 2 } });
    expect(await documents()).toMatchObject({ journal: 7, web: 1 });

    const search = (body: object) =>
      post<{ total: number; list: LibraryDocument[] }>('support', '/search', body);
    const byTitle = await search({ text: '压缩包中的' });
    expect(byTitle.data.list).toEqual([
      expect.objectContaining({
        id: 'batch/papers/论文甲.txt',
        title: '压缩包中的论文甲',
        authors: ['柳青'],
        year: 2021,
        collection: 'journal',
        origin: 'import',
      }),
    ]);
    expect((await search({ text: '柳青' })).data.list.map((d) => d.id)).toEqual(['batch/papers/论文甲.txt']);
    expect((await search({ text: 'web:1' })).data.list.map((d) => d.title)).toEqual(['互联网资源甲']);
    const journal = await search({ collection: 'journal', pageSize: 3 });
    expect(journal.data.total).toBe(7);
    expect(journal.data.list).toHaveLength(3);
    expect((await search({ text: '没有这样的题名' })).data).toEqual({ total: 0, list: [] });
  });

  it('refuses a file that is not an import file at once (1001, nothing stored or queued)', async () => {
    const cases: [string, Uint8Array, string][] = [
      ['paper.pdf', Buffer.from('%PDF-1.4'), '只能导入 .jsonl、.jsonl.gz 或 .zip 文件'],
      ['empty.jsonl', Buffer.alloc(0), '所选文件是空的（0 字节）'],
      [
        'words.jsonl',
        Buffer.from('这不是 JSON\n'),
        '文件不是 UTF-8 编码的 JSON lines 文本（每行一个 JSON 对象）',
      ],
      ['fake.jsonl.gz', Buffer.from('{"id":1}\n'), '文件名以 .gz 结尾，但内容不是 gzip 压缩文件'],
      ['fake.zip', Buffer.from('{"id":1}\n'), '文件名以 .zip 结尾，但内容不是 zip 压缩包'],
    ];
    const before = await t.db.selectFrom('library_imports').select('id').execute();
    for (const [name, bytes, message] of cases) {
      expect(await importFile('admin', { name, bytes }), name).toMatchObject({
        code: ErrorCode.VALIDATION,
        message,
      });
    }
    expect(
      await importFile('admin', { name: 'a.jsonl', bytes: jsonl([{ id: 1, text: 'x' }]) }, {}),
    ).toMatchObject({
      code: ErrorCode.VALIDATION,
      message: '请选择导入到哪个比对库',
    });
    expect(
      await importFile(
        'admin',
        { name: 'a.jsonl', bytes: jsonl([{ id: 1, text: 'x' }]) },
        { collection: 'user' },
      ),
    ).toMatchObject({ code: ErrorCode.VALIDATION, message: '请选择导入到哪个比对库' });
    expect(await importFile('admin', null)).toMatchObject({
      code: ErrorCode.VALIDATION,
      message: '请选择要导入的文件',
    });
    expect(await t.db.selectFrom('library_imports').select('id').execute()).toEqual(before);
    // The failed attempts are audited with their message.
    const failed = (await auditOf('library.import')).filter((r) => r.outcome === 'failed');
    expect(failed.length).toBeGreaterThanOrEqual(cases.length);
  });

  it('fails a file with bad records with the reason, and adds none of its good ones', async () => {
    const before = await documents();
    const badLine = Buffer.concat([
      jsonl([{ id: 'x1', title: '好的一篇', text: libraryText(7301, 600) }]),
      Buffer.from('{"id": "x2", "text": 没有引号}\n'),
      jsonl([{ id: 'x3', title: '没有正文' }]),
    ]);
    const a = await importFile('admin', { name: 'bad.jsonl', bytes: badLine });
    const truncated = gzipSync(jsonl([{ id: 1, text: libraryText(7302, 3000) }])).subarray(0, 200);
    const b = await importFile('admin', { name: 'cut.jsonl.gz', bytes: truncated });
    const c = await importFile('admin', {
      name: 'nopapers.zip',
      bytes: zipSync({ 'a.md': Buffer.from('x') }),
    });
    for (const r of [a, b, c]) expect(r.code).toBe(0);
    await runImports();
    expect(await importOf(a.data.importId)).toMatchObject({
      status: 'failed',
      summary: null,
      error:
        '文件有 2 处问题，未导入任何文档：第 2 行：不是合法的 JSON；第 3 行：缺少 id 或正文（text / abstract）',
    });
    expect(await importOf(b.data.importId)).toMatchObject({
      status: 'failed',
      error: 'gzip 文件已损坏或不完整，无法解压',
    });
    expect(await importOf(c.data.importId)).toMatchObject({
      status: 'failed',
      error: '压缩包中没有 .docx、.doc、.pdf 或 .txt 文件',
    });
    expect(await documents()).toEqual(before);
    expect((await post<{ total: number }>('admin', '/search', { text: '好的一篇' })).data.total).toBe(0);
    // The stored upload is gone with the failed import.
    const row = await t.db
      .selectFrom('library_imports')
      .select('file_key')
      .where('id', '=', a.data.importId)
      .executeTakeFirstOrThrow();
    expect(await t.check.storage.exists(row.file_key)).toBe(false);
  });
});

describe('removal and the users’ papers', () => {
  let user: { token: string; userId: string };

  const checkPaper = (text: string, fields: Record<string, string> = {}) =>
    checkPaidPaper(t, user.token, text, fields);

  beforeAll(async () => {
    user = await newUser(t);
  });

  it('a removed document no longer matches in new checks; the removal is audited with what was removed', async () => {
    const source = libraryText(7401, 1200);
    const started = await importFile(
      'admin',
      { name: 'to-remove.jsonl', bytes: jsonl([{ id: 1, title: '将被删除的文献', text: source }]) },
      { collection: 'journal' },
    );
    await runImports();
    expect((await importOf(started.data.importId)).status).toBe('succeeded');
    const paper = buildThesis({ seed: 7402, chars: 3000, planted: [source.slice(0, 400)] }).text;
    expect((await checkPaper(paper)).report.sources.map((s) => s.title)).toEqual(['将被删除的文献']);

    const removed = await post('admin', '/remove', { id: 'to-remove:1' });
    expect(removed).toMatchObject({ code: 0, message: '已从比对库删除' });
    expect((await checkPaper(paper)).report.sources).toEqual([]);
    const audit = (await auditOf('library.remove')).find((r) => r.outcome === 'ok')!;
    expect(audit).toMatchObject({ username: 'adminlib', target: 'to-remove:1' });
    expect(JSON.stringify(audit.before)).toContain('将被删除的文献');
    // Again, or an unknown id: a clear refusal, nothing else removed.
    const before = await documents();
    expect(await post('admin', '/remove', { id: 'to-remove:1' })).toMatchObject({
      code: ErrorCode.RESOURCE_NOT_FOUND,
      message: '比对库中没有该文档（可能已被删除）',
    });
    expect(await post('admin', '/remove', { id: '' })).toMatchObject({ code: ErrorCode.VALIDATION });
    expect(await documents()).toEqual(before);
  });

  it('lists the papers users added by consent (and only those) in the user collection', async () => {
    const paper = buildThesis({ seed: 7501, chars: 3000 }).text;
    const opted = await checkPaper(paper, { addToLibrary: 'true', title: '同意入库的论文' });
    await checkPaper(buildThesis({ seed: 7502, chars: 3000 }).text, { title: '未同意入库的论文' });
    const users = await post<{ total: number; list: LibraryDocument[] }>('support', '/search', {
      collection: 'user',
    });
    expect(users.data.total).toBe(1);
    expect(users.data.list[0]).toMatchObject({
      id: `upload:${opted.orderId}`,
      title: '同意入库的论文',
      collection: 'user',
      origin: 'upload',
    });
    expect((await documents()).user).toBe(1);
  });
});
