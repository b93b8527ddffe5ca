// `npm run api:record` — records what the API answers to one fixed script of requests, so that two
// versions of the server can be compared (issue 11: "the API answers identical for the same
// requests"). Volatile values (ids, times, tokens, order and report numbers) are replaced by stable
// labels (scripts/lib/api-record.ts), so two records of the same behaviour are equal.
//
//   npm run --silent api:record -- record --out <file.json> [--root <checkout>] [--port 3101]
//       starts the server of <checkout> (default: this one) on a fresh DATA_DIR (embedded database,
//       sandboxes), runs the script, writes the record, stops the server
//       --env KEY=VALUE (repeatable) adds a variable to the server's environment
//   npm run --silent api:record -- record --out <file.json> --url http://127.0.0.1:3101
//       runs the script against a server already running with sandboxes
//   npm run --silent api:record -- compare <before.json> <after.json>
//       lists every difference; exits 1 when there is one
//
// The script: home, registration and login through the sandbox SMS (with wrong codes and
// passwords), the user's info, check goods, an upload run as a free check to its report, a paid
// upload with its order (pay QR, list, detail, cancel), addresses and invoices (with bad input),
// report verification, and bad requests (unknown path, broken JSON, no token, bad ids).
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import {
  type ApiRecord,
  compareRecords,
  createNormaliser,
  formatDifferences,
  type RecordedExchange,
} from './lib/api-record.ts';

const API = '/kyfw/web/v1';
/** Answers larger than this are recorded as a digest and their top-level shape. */
const INLINE_LIMIT = 20_000;

const args = process.argv.slice(2);
const option = (name: string): string | undefined => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
};

/** The `--env KEY=VALUE` options. */
function extraEnv(): Record<string, string> {
  const out: Record<string, string> = {};
  args.forEach((a, i) => {
    const pair = a === '--env' ? args[i + 1] : undefined;
    const eq = pair?.indexOf('=') ?? -1;
    if (pair && eq > 0) out[pair.slice(0, eq)] = pair.slice(eq + 1);
  });
  return out;
}

function fail(message: string): never {
  console.error(message);
  process.exit(2);
}

// --- the requests -----------------------------------------------------------------------------------

interface Step {
  name: string;
  method?: 'GET' | 'POST';
  path: string;
  body?: unknown;
  /** Raw body text (sent as JSON content type), for broken JSON. */
  raw?: string;
  form?: FormData;
  token?: string;
}

interface Answer {
  status: number;
  contentType: string | null;
  json: unknown;
}

class Recorder {
  readonly exchanges: RecordedExchange[] = [];
  private readonly normaliser = createNormaliser();
  readonly base: string;
  constructor(base: string) {
    this.base = base;
  }

  async send(step: Step): Promise<Answer> {
    const method = step.method ?? 'POST';
    const headers: Record<string, string> = { terminal: 'PC' };
    if (step.token) headers.token = step.token;
    let body: FormData | string | undefined;
    if (step.form) body = step.form;
    else if (step.raw !== undefined) {
      headers['content-type'] = 'application/json';
      body = step.raw;
    } else if (method === 'POST') {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(step.body ?? {});
    }
    const res = await fetch(`${this.base}${step.path.startsWith('/__') ? '' : API}${step.path}`, {
      method,
      headers,
      body,
    });
    const contentType = res.headers.get('content-type');
    const bytes = Buffer.from(await res.arrayBuffer());
    let json: unknown;
    let recorded: unknown;
    if (contentType?.includes('application/json')) {
      const text = bytes.toString('utf8');
      json = JSON.parse(text);
      const normalised = this.normaliser.normalise(json);
      const normalisedText = JSON.stringify(normalised);
      recorded =
        normalisedText.length > INLINE_LIMIT
          ? {
              digest: createHash('sha256').update(normalisedText).digest('hex').slice(0, 16),
              length: normalisedText.length,
              shape: shapeOf(normalised, 3),
            }
          : normalised;
    } else {
      recorded = { file: true, nonEmpty: bytes.length > 0, starts: bytes.subarray(0, 5).toString('latin1') };
    }
    this.exchanges.push({
      name: step.name,
      method,
      path: step.path,
      status: res.status,
      contentType: contentType?.split(';')[0] ?? null,
      body: recorded,
    });
    return { status: res.status, contentType, json };
  }
}

/** Keys and types down to `depth` levels, for an answer too large to keep whole. */
function shapeOf(value: unknown, depth: number): unknown {
  if (Array.isArray(value))
    return depth === 0
      ? 'array'
      : [value.length, value[0] === undefined ? null : shapeOf(value[0], depth - 1)];
  if (value && typeof value === 'object') {
    if (depth === 0) return 'object';
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, shapeOf(v, depth - 1)]));
  }
  return typeof value;
}

interface Envelope {
  code: number;
  message: string;
  // biome-ignore lint/suspicious/noExplicitAny: the script reads fields of many answer shapes
  data: any;
}
const env = (a: Answer) => a.json as Envelope;

const md5 = (text: string) => createHash('md5').update(text).digest('hex');

/** A paper of `sentences` sentences, the same on every run. */
function paper(seed: number, sentences: number): string {
  const subjects = ['本研究', '该方法', '实验结果', '这一模型', '调查数据', '上述分析'];
  const verbs = ['表明', '显示', '说明', '证实', '揭示', '提示'];
  const objects = [
    '土壤有机质含量与作物产量密切相关',
    '区域经济发展存在明显差异',
    '教学改革提高了学生的学习兴趣',
    '材料的力学性能随温度升高而下降',
    '城市绿地对热岛效应有缓解作用',
    '企业创新投入与绩效呈正相关',
  ];
  const lines: string[] = ['摘要'];
  let x = seed;
  for (let i = 0; i < sentences; i++) {
    x = (x * 1103515245 + 12345) % 2147483648;
    lines.push(
      `${subjects[x % 6]}${verbs[(x >> 3) % 6]}${objects[(x >> 6) % 6]}，第${i + 1}组样本的结论与此一致。`,
    );
  }
  return lines.join('\n');
}

function upload(text: string, goodsId: string, title: string): FormData {
  const form = new FormData();
  form.set('title', title);
  form.set('author', '张三');
  form.set('goodsId', goodsId);
  form.set('file', new Blob([Buffer.from(text, 'utf8')], { type: 'text/plain' }), 'paper.txt');
  return form;
}

async function runScript(r: Recorder): Promise<void> {
  const phone = '13912345678';
  const password = md5('Secret-2026');
  const unknownId = '00000000-0000-4000-8000-000000000000';
  let token: string | undefined;
  /** A POST with a JSON body, without the login. */
  const post = async (name: string, path: string, body: unknown = {}) =>
    env(await r.send({ name, path, body }));
  /** A POST with a JSON body as the logged-in user. */
  const call = async (name: string, path: string, body: unknown = {}) =>
    env(await r.send({ name, path, body, token }));
  const send = async (name: string, path: string, form: FormData, withToken = true) =>
    env(await r.send({ name, path, form, token: withToken ? token : undefined }));

  // Home
  await r.send({ name: 'home.homeInfo GET', method: 'GET', path: '/home/homeInfo' });
  await post('home.homeInfo POST', '/home/homeInfo');
  await post('home.article', '/home/article', { page: 1, pageSize: 10 });
  await post('home.article bad category', '/home/article', { category: 'nope' });
  await post('home.articleContent unknown', '/home/articleContent', { slug: 'no-such-article' });

  // Registration and login through the sandbox SMS
  await post('sms bad phone', '/sendCheckCode', { phoneNumber: '123', type: '1' });
  await post('sms bad type', '/sendCheckCode', { phoneNumber: phone, type: '9' });
  await post('sms register', '/sendCheckCode', { phoneNumber: phone, type: '1' });
  const sms = await fetch(`${r.base}/__dev/sms/last?phone=${phone}`);
  const code = ((await sms.json()) as Envelope).data?.code as string | undefined;
  if (!code) throw new Error('the sandbox SMS outbox has no code (is the server running with sandboxes?)');
  const register = (checkCode: string, passWord: string) => ({ phoneNumber: phone, checkCode, passWord });
  await post(
    'register wrong code',
    '/addUserByPhone',
    register(code === '000000' ? '111111' : '000000', password),
  );
  await post('register bad password', '/addUserByPhone', register(code, 'plain'));
  const registered = await post('register', '/addUserByPhone', register(code, password));
  await post('register again', '/sendCheckCode', { phoneNumber: phone, type: '1' });
  await post('login wrong password', '/login', { phoneNumber: phone, passWord: md5('wrong') });
  await post('login unknown phone', '/login', { phoneNumber: '13700000001', passWord: password });
  const login = await post('login', '/login', { phoneNumber: phone, passWord: password });
  token = login.data?.token ?? registered.data?.token;
  if (!token) throw new Error('no token after registration and login');
  await call('getUserInfo', '/getUserInfo');
  await post('getUserInfo without token', '/getUserInfo');
  await r.send({ name: 'getUserInfo bad token', path: '/getUserInfo', token: 'not-a-token' });
  await call('websiteUser.userInfo', '/websiteUser/userInfo');
  await call('updateUserInfo too long', '/websiteUser/updateUserInfo', { realName: '名'.repeat(60) });
  await call('updateUserInfo', '/websiteUser/updateUserInfo', { realName: '张三', unitName: '某大学' });
  await call('queryIsUsePhone', '/websiteUser/queryIsUsePhone', { phoneNumber: phone });

  // Paper check: goods, a free check to its report
  await post('check.goodsList anonymous', '/freeCheck/goodsList');
  const goods = await call('check.goodsList', '/freeCheck/goodsList');
  const list = (goods.data ?? []) as { goodsId?: string; freeMaxChars?: number | null; kind?: string }[];
  const goodsId = (list.find((g) => g.freeMaxChars && (g.kind ?? 'similarity') === 'similarity') ?? list[0])
    ?.goodsId;
  if (!goodsId) throw new Error('no check goods');
  const noFile = new FormData();
  for (const [k, v] of Object.entries({ title: 't', author: 'a', goodsId })) noFile.set(k, v);
  await send('upload without file', '/freeCheck/uploadFile', noFile);
  await send('upload without title', '/freeCheck/uploadFile', upload(paper(1, 40), goodsId, ''));
  await send('upload without token', '/freeCheck/uploadFile', upload(paper(1, 40), goodsId, '论文'), false);
  const free = await send(
    'upload free',
    '/freeCheck/uploadFile',
    upload(paper(1, 60), goodsId, '土壤与经济研究'),
  );
  const freeId: string | undefined = free.data?.orderId;
  if (freeId) {
    const order = { orderId: freeId };
    await call('report before start', '/freeCheck/report', order);
    await call('checkStatus pending', '/freeCheck/checkStatus', order);
    await call('payFee (free start)', '/freeCheck/payFee', order);
    for (let i = 0; i < 240; i++) {
      const state = (await call('poll', '/freeCheck/checkStatus', order)).data?.checkStatus;
      r.exchanges.pop(); // polls are not recorded: how many a check takes is timing
      if (state === 'done' || state === 'failed') break;
      await new Promise((ok) => setTimeout(ok, 500));
    }
    await call('checkStatus finished', '/freeCheck/checkStatus', order);
    await call('orderPayStatus of free check', '/freeCheck/orderPayStatus', order);
    const report = await call('report', '/freeCheck/report', order);
    for (const format of ['pdf', 'html', 'zip', 'marked'])
      await call(`download ${format}`, '/freeCheck/downloadReport', { ...order, format });
    await call('download bad format', '/freeCheck/downloadReport', { ...order, format: 'exe' });
    const reportNo = findString(report.data, /^BG\d{8}/) ?? 'BG20260101AAAAAAAA';
    await post('verify wrong code', '/freeCheck/verify', { reportNo, code: 'ZZZZZZ' });
    await call('payFee again', '/freeCheck/payFee', order);
    await call('retryCheck of a done check', '/freeCheck/retryCheck', order);
  }

  // A paid upload and its order
  const paid = await send(
    'upload paid',
    '/freeCheck/uploadFile',
    upload(paper(2, 80), goodsId, '区域经济研究'),
  );
  const paidId: string = paid.data?.orderId ?? unknownId;
  const order = { orderId: paidId };
  await call('payFee on paid check', '/freeCheck/payFee', order);
  await call('pay QR bad type', '/freeCheck/freeCheckQrPayCode', { ...order, payType: 'cash' });
  await call('pay QR wx', '/freeCheck/freeCheckQrPayCode', { ...order, payType: 'wx' });
  await call('orderPayStatus unpaid', '/freeCheck/orderPayStatus', order);
  await call('order.payStatus', '/order/payStatus', order);
  await call('order.list', '/order/list', { page: 1, pageSize: 10 });
  await call('order.list check tab', '/order/list', { serviceType: 'check', page: 1, pageSize: 10 });
  await call('order.list bad tab', '/order/list', { serviceType: 'nope' });
  await call('order.detail', '/order/detail', order);
  await call('check.orderList', '/freeCheck/orderList', { page: 1, pageSize: 10 });
  await call('order.cancel', '/order/cancel', order);
  await call('order.cancel again', '/order/cancel', order);
  await call('order.detail cancelled', '/order/detail', order);
  await call('checkStatus of cancelled order', '/freeCheck/checkStatus', order);
  await call('check.deleteOrder', '/freeCheck/deleteOrder', order);
  await call('checkStatus deleted', '/freeCheck/checkStatus', order);
  await call('payment.records', '/payment/records', { page: 1, pageSize: 10 });
  await call('offline info', '/payment/offline/info');

  // Addresses
  const address = (fields: Record<string, unknown> = {}) => ({
    name: '张三',
    phone,
    province: '北京市',
    city: '北京市',
    district: '海淀区',
    detail: '中关村大街1号',
    ...fields,
  });
  await call('address.list empty', '/address/list');
  await call('address.save no name', '/address/save', address({ name: '' }));
  await call('address.save bad phone', '/address/save', address({ phone: '123' }));
  await call('address.save name too long', '/address/save', address({ name: '张'.repeat(21) }));
  const saved = await call('address.save', '/address/save', address());
  const second = await call(
    'address.save second',
    '/address/save',
    address({ name: '李四', province: '上海市', city: '上海市', district: '徐汇区', isDefault: true }),
  );
  const addressId: string = saved.data?.id ?? unknownId;
  await call(
    'address.save update',
    '/address/save',
    address({ id: addressId, name: '张三丰', detail: '中关村大街2号' }),
  );
  await call('address.setDefault', '/address/setDefault', { id: addressId });
  await call('address.list', '/address/list');
  await call('address.delete', '/address/delete', { id: second.data?.id ?? unknownId });
  await call('address.delete unknown', '/address/delete', { id: unknownId });
  await call('address.list after delete', '/address/list');
  await call('cityList', '/websiteUser/cityList');

  // Invoices
  const invoice = (fields: Record<string, unknown>) => ({
    orderIds: [paidId],
    titleType: 'personal',
    title: '张三',
    email: 'a@example.com',
    ...fields,
  });
  await call('invoice.orders', '/invoice/orders');
  await call('invoice.list', '/invoice/list', { page: 1, pageSize: 10 });
  await call('invoice.create no orders', '/invoice/create', invoice({ orderIds: [] }));
  await call(
    'invoice.create company without taxpayer id',
    '/invoice/create',
    invoice({ titleType: 'company' }),
  );
  await call('invoice.create unpaid order', '/invoice/create', invoice({}));

  // Bad requests
  await post('unknown path', '/no/such/endpoint');
  await r.send({ name: 'broken JSON', path: '/login', raw: '{"phoneNumber": ' });
  await call('report of unknown order', '/freeCheck/report', { orderId: unknownId });
  await call('report of bad id', '/freeCheck/report', { orderId: 'abc' });
  await call('order.detail bad id', '/order/detail', { orderId: 'abc' });
  await post('NUL in body', '/login', { phoneNumber: '1391234\u00005678', passWord: password });

  // Logout
  await call('logout', '/user/logout');
  await call('getUserInfo after logout', '/getUserInfo');
}

/** The first string in `value` (depth first) matching `pattern`. */
function findString(value: unknown, pattern: RegExp): string | undefined {
  if (typeof value === 'string') return pattern.test(value) ? value : undefined;
  if (value && typeof value === 'object') {
    for (const v of Object.values(value)) {
      const found = findString(v, pattern);
      if (found) return found;
    }
  }
  return undefined;
}

// --- the server ------------------------------------------------------------------------------------

async function waitForServer(base: string, server: { exited: boolean; log: () => string }): Promise<void> {
  for (let i = 0; i < 600; i++) {
    if (server.exited) fail(`the server stopped before answering:\n${server.log()}`);
    try {
      await fetch(`${base}${API}/home/homeInfo`);
      return;
    } catch {
      await new Promise((ok) => setTimeout(ok, 250));
    }
  }
  fail(`the server did not answer within 150 s:\n${server.log()}`);
}

async function record(): Promise<void> {
  const out = option('out') ?? fail('record needs --out <file.json>');
  const url = option('url');
  const root = resolve(option('root') ?? resolve(import.meta.dirname, '..'));
  const commit = spawnSync('git', ['-C', root, 'rev-parse', '--short', 'HEAD'], {
    encoding: 'utf8',
  }).stdout.trim();
  let stop = async () => {};
  let base = url;
  if (!base) {
    const port = option('port') ?? '3101';
    const dataDir = mkdtempSync(join(tmpdir(), 'api-record-'));
    base = `http://127.0.0.1:${port}`;
    let log = '';
    const child = spawn(join(root, 'node_modules/.bin/node'), [join(root, 'apps/server/src/main.ts')], {
      cwd: root,
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        NODE_ENV: 'development',
        PORT: port,
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        PROVIDERS: 'sandbox',
        LOG_LEVEL: 'warn',
        ...extraEnv(),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const state = { exited: false, log: () => log.slice(-4000) };
    child.stdout.on('data', (d: Buffer) => (log += d.toString()));
    child.stderr.on('data', (d: Buffer) => (log += d.toString()));
    child.on('exit', () => (state.exited = true));
    stop = async () => {
      if (!state.exited) {
        child.kill('SIGTERM');
        await new Promise((ok) => child.once('exit', ok));
      }
      rmSync(dataDir, { recursive: true, force: true });
    };
    await waitForServer(base, state);
  }
  const recorder = new Recorder(base);
  try {
    await runScript(recorder);
  } finally {
    await stop();
  }
  const result: ApiRecord = {
    meta: { commit, recordedAt: new Date().toISOString() },
    exchanges: recorder.exchanges,
  };
  writeFileSync(out, `${JSON.stringify(result, null, 1)}\n`);
  console.log(`${recorder.exchanges.length} exchanges of ${commit} recorded in ${out}`);
}

function compare(): void {
  const [, a, b] = args;
  if (!a || !b) fail('compare needs two record files');
  for (const file of [a, b]) if (!existsSync(file)) fail(`no record ${file}`);
  const before = JSON.parse(readFileSync(a, 'utf8')) as ApiRecord;
  const after = JSON.parse(readFileSync(b, 'utf8')) as ApiRecord;
  const differences = compareRecords(before, after);
  console.log(
    `${before.meta.commit} -> ${after.meta.commit}: ${differences.length} difference(s) in ${before.exchanges.length} / ${after.exchanges.length} exchanges`,
  );
  if (differences.length > 0) {
    console.log(formatDifferences(differences));
    process.exit(1);
  }
}

if (args[0] === 'record') await record();
else if (args[0] === 'compare') compare();
else
  fail(
    'usage: api-record.ts record --out <file> [--root <checkout>] [--port N] [--url <base>] | compare <a> <b>',
  );
