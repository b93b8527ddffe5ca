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
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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

  // Home
  await r.send({ name: 'home.homeInfo GET', method: 'GET', path: '/home/homeInfo' });
  await r.send({ name: 'home.homeInfo POST', path: '/home/homeInfo' });
  await r.send({ name: 'home.article', path: '/home/article', body: { page: 1, pageSize: 10 } });
  await r.send({ name: 'home.article bad category', path: '/home/article', body: { category: 'nope' } });
  await r.send({
    name: 'home.articleContent unknown',
    path: '/home/articleContent',
    body: { slug: 'no-such-article' },
  });

  // Registration and login through the sandbox SMS
  await r.send({ name: 'sms bad phone', path: '/sendCheckCode', body: { phoneNumber: '123', type: '1' } });
  await r.send({ name: 'sms bad type', path: '/sendCheckCode', body: { phoneNumber: phone, type: '9' } });
  await r.send({ name: 'sms register', path: '/sendCheckCode', body: { phoneNumber: phone, type: '1' } });
  const sms = await fetch(`${r.base}/__dev/sms/last?phone=${phone}`);
  const code = ((await sms.json()) as Envelope).data?.code as string | undefined;
  if (!code) throw new Error('the sandbox SMS outbox has no code (is the server running with sandboxes?)');
  const wrongCode = code === '000000' ? '111111' : '000000';
  await r.send({
    name: 'register wrong code',
    path: '/addUserByPhone',
    body: { phoneNumber: phone, checkCode: wrongCode, passWord: password },
  });
  await r.send({
    name: 'register bad password',
    path: '/addUserByPhone',
    body: { phoneNumber: phone, checkCode: code, passWord: 'plain' },
  });
  const registered = env(
    await r.send({
      name: 'register',
      path: '/addUserByPhone',
      body: { phoneNumber: phone, checkCode: code, passWord: password },
    }),
  );
  await r.send({ name: 'register again', path: '/sendCheckCode', body: { phoneNumber: phone, type: '1' } });
  await r.send({
    name: 'login wrong password',
    path: '/login',
    body: { phoneNumber: phone, passWord: md5('wrong') },
  });
  await r.send({
    name: 'login unknown phone',
    path: '/login',
    body: { phoneNumber: '13700000001', passWord: password },
  });
  const login = env(
    await r.send({ name: 'login', path: '/login', body: { phoneNumber: phone, passWord: password } }),
  );
  const token: string = login.data?.token ?? registered.data?.token;
  if (!token) throw new Error('no token after registration and login');
  await r.send({ name: 'getUserInfo', path: '/getUserInfo', token });
  await r.send({ name: 'getUserInfo without token', path: '/getUserInfo' });
  await r.send({ name: 'getUserInfo bad token', path: '/getUserInfo', token: 'not-a-token' });
  await r.send({ name: 'websiteUser.userInfo', path: '/websiteUser/userInfo', token });
  await r.send({
    name: 'updateUserInfo too long',
    path: '/websiteUser/updateUserInfo',
    token,
    body: { realName: '名'.repeat(60) },
  });
  await r.send({
    name: 'updateUserInfo',
    path: '/websiteUser/updateUserInfo',
    token,
    body: { realName: '张三', unitName: '某大学' },
  });
  await r.send({
    name: 'queryIsUsePhone',
    path: '/websiteUser/queryIsUsePhone',
    token,
    body: { phoneNumber: phone },
  });

  // Paper check: goods, a free check to its report
  await r.send({ name: 'check.goodsList anonymous', path: '/freeCheck/goodsList' });
  const goods = env(await r.send({ name: 'check.goodsList', path: '/freeCheck/goodsList', token }));
  const list = (goods.data ?? []) as {
    goodsId?: string;
    id?: string;
    freeMaxChars?: number | null;
    kind?: string;
  }[];
  const freeGoods = list.find((g) => g.freeMaxChars && (g.kind ?? 'similarity') === 'similarity') ?? list[0];
  const goodsId = freeGoods?.goodsId ?? freeGoods?.id;
  if (!goodsId) throw new Error('no check goods');
  await r.send({
    name: 'upload without file',
    path: '/freeCheck/uploadFile',
    token,
    form: (() => {
      const f = new FormData();
      f.set('title', 't');
      f.set('author', 'a');
      f.set('goodsId', goodsId);
      return f;
    })(),
  });
  await r.send({
    name: 'upload without title',
    path: '/freeCheck/uploadFile',
    token,
    form: upload(paper(1, 40), goodsId, ''),
  });
  await r.send({
    name: 'upload without token',
    path: '/freeCheck/uploadFile',
    form: upload(paper(1, 40), goodsId, '论文'),
  });
  const free = env(
    await r.send({
      name: 'upload free',
      path: '/freeCheck/uploadFile',
      token,
      form: upload(paper(1, 60), goodsId, '土壤与经济研究'),
    }),
  );
  const freeId: string | undefined = free.data?.orderId;
  if (freeId) {
    await r.send({
      name: 'report before start',
      path: '/freeCheck/report',
      token,
      body: { orderId: freeId },
    });
    await r.send({
      name: 'checkStatus pending',
      path: '/freeCheck/checkStatus',
      token,
      body: { orderId: freeId },
    });
    await r.send({
      name: 'payFee (free start)',
      path: '/freeCheck/payFee',
      token,
      body: { orderId: freeId },
    });
    let done = false;
    for (let i = 0; i < 240 && !done; i++) {
      const s = await r.send({
        name: 'poll',
        path: '/freeCheck/checkStatus',
        token,
        body: { orderId: freeId },
      });
      r.exchanges.pop(); // polls are not recorded: how many a check takes is timing
      const st = env(s).data;
      done = st?.checkStatus === 'done' || st?.checkStatus === 'failed';
      if (!done) await new Promise((ok) => setTimeout(ok, 500));
    }
    await r.send({
      name: 'checkStatus finished',
      path: '/freeCheck/checkStatus',
      token,
      body: { orderId: freeId },
    });
    await r.send({
      name: 'orderPayStatus of free check',
      path: '/freeCheck/orderPayStatus',
      token,
      body: { orderId: freeId },
    });
    const report = env(
      await r.send({ name: 'report', path: '/freeCheck/report', token, body: { orderId: freeId } }),
    );
    for (const format of ['pdf', 'html', 'zip', 'marked'])
      await r.send({
        name: `download ${format}`,
        path: '/freeCheck/downloadReport',
        token,
        body: { orderId: freeId, format },
      });
    await r.send({
      name: 'download bad format',
      path: '/freeCheck/downloadReport',
      token,
      body: { orderId: freeId, format: 'exe' },
    });
    const reportNo = findString(report.data, /^BG\d{8}/);
    await r.send({
      name: 'verify wrong code',
      path: '/freeCheck/verify',
      body: { reportNo: reportNo ?? 'BG20260101AAAAAAAA', code: 'ZZZZZZ' },
    });
    await r.send({ name: 'payFee again', path: '/freeCheck/payFee', token, body: { orderId: freeId } });
    await r.send({
      name: 'retryCheck of a done check',
      path: '/freeCheck/retryCheck',
      token,
      body: { orderId: freeId },
    });
  }

  // A paid upload and its order
  const paid = env(
    await r.send({
      name: 'upload paid',
      path: '/freeCheck/uploadFile',
      token,
      form: upload(paper(2, 80), goodsId, '区域经济研究'),
    }),
  );
  const paidId: string | undefined = paid.data?.orderId;
  if (paidId) {
    await r.send({
      name: 'payFee on paid check',
      path: '/freeCheck/payFee',
      token,
      body: { orderId: paidId },
    });
    await r.send({
      name: 'pay QR bad type',
      path: '/freeCheck/freeCheckQrPayCode',
      token,
      body: { orderId: paidId, payType: 'cash' },
    });
    await r.send({
      name: 'pay QR wx',
      path: '/freeCheck/freeCheckQrPayCode',
      token,
      body: { orderId: paidId, payType: 'wx' },
    });
    await r.send({
      name: 'orderPayStatus unpaid',
      path: '/freeCheck/orderPayStatus',
      token,
      body: { orderId: paidId },
    });
    await r.send({ name: 'order.payStatus', path: '/order/payStatus', token, body: { orderId: paidId } });
    await r.send({ name: 'order.list', path: '/order/list', token, body: { page: 1, pageSize: 10 } });
    await r.send({
      name: 'order.list check tab',
      path: '/order/list',
      token,
      body: { serviceType: 'check', page: 1, pageSize: 10 },
    });
    await r.send({ name: 'order.list bad tab', path: '/order/list', token, body: { serviceType: 'nope' } });
    await r.send({ name: 'order.detail', path: '/order/detail', token, body: { orderId: paidId } });
    await r.send({
      name: 'check.orderList',
      path: '/freeCheck/orderList',
      token,
      body: { page: 1, pageSize: 10 },
    });
    await r.send({ name: 'order.cancel', path: '/order/cancel', token, body: { orderId: paidId } });
    await r.send({ name: 'order.cancel again', path: '/order/cancel', token, body: { orderId: paidId } });
    await r.send({ name: 'order.detail cancelled', path: '/order/detail', token, body: { orderId: paidId } });
    await r.send({
      name: 'checkStatus of cancelled order',
      path: '/freeCheck/checkStatus',
      token,
      body: { orderId: paidId },
    });
    await r.send({
      name: 'check.deleteOrder',
      path: '/freeCheck/deleteOrder',
      token,
      body: { orderId: paidId },
    });
    await r.send({
      name: 'checkStatus deleted',
      path: '/freeCheck/checkStatus',
      token,
      body: { orderId: paidId },
    });
  }
  await r.send({ name: 'payment.records', path: '/payment/records', token, body: { page: 1, pageSize: 10 } });
  await r.send({ name: 'offline info', path: '/payment/offline/info', token });

  // Addresses
  await r.send({ name: 'address.list empty', path: '/address/list', token });
  await r.send({
    name: 'address.save no name',
    path: '/address/save',
    token,
    body: {
      name: '',
      phone,
      province: '北京市',
      city: '北京市',
      district: '海淀区',
      detail: '中关村大街1号',
    },
  });
  await r.send({
    name: 'address.save bad phone',
    path: '/address/save',
    token,
    body: {
      name: '张三',
      phone: '123',
      province: '北京市',
      city: '北京市',
      district: '海淀区',
      detail: '中关村大街1号',
    },
  });
  await r.send({
    name: 'address.save name too long',
    path: '/address/save',
    token,
    body: {
      name: '张'.repeat(21),
      phone,
      province: '北京市',
      city: '北京市',
      district: '海淀区',
      detail: '中关村大街1号',
    },
  });
  const saved = env(
    await r.send({
      name: 'address.save',
      path: '/address/save',
      token,
      body: {
        name: '张三',
        phone,
        province: '北京市',
        city: '北京市',
        district: '海淀区',
        detail: '中关村大街1号',
      },
    }),
  );
  const second = env(
    await r.send({
      name: 'address.save second',
      path: '/address/save',
      token,
      body: {
        name: '李四',
        phone: '13800138000',
        province: '上海市',
        city: '上海市',
        district: '徐汇区',
        detail: '漕溪北路2号',
        isDefault: true,
      },
    }),
  );
  const addressId: string | undefined = saved.data?.id;
  if (addressId) {
    await r.send({
      name: 'address.save update',
      path: '/address/save',
      token,
      body: {
        id: addressId,
        name: '张三丰',
        phone,
        province: '北京市',
        city: '北京市',
        district: '海淀区',
        detail: '中关村大街2号',
      },
    });
    await r.send({ name: 'address.setDefault', path: '/address/setDefault', token, body: { id: addressId } });
    await r.send({ name: 'address.list', path: '/address/list', token });
    await r.send({
      name: 'address.delete',
      path: '/address/delete',
      token,
      body: { id: second.data?.id ?? addressId },
    });
  }
  await r.send({
    name: 'address.delete unknown',
    path: '/address/delete',
    token,
    body: { id: '00000000-0000-4000-8000-000000000000' },
  });
  await r.send({ name: 'address.list after delete', path: '/address/list', token });
  await r.send({ name: 'cityList', path: '/websiteUser/cityList', token });

  // Invoices
  await r.send({ name: 'invoice.orders', path: '/invoice/orders', token });
  await r.send({ name: 'invoice.list', path: '/invoice/list', token, body: { page: 1, pageSize: 10 } });
  await r.send({
    name: 'invoice.create no orders',
    path: '/invoice/create',
    token,
    body: { orderIds: [], titleType: 'personal', title: '张三', email: 'a@example.com' },
  });
  await r.send({
    name: 'invoice.create company without taxpayer id',
    path: '/invoice/create',
    token,
    body: {
      orderIds: [paidId ?? '00000000-0000-4000-8000-000000000000'],
      titleType: 'company',
      title: '某公司',
      email: 'a@example.com',
    },
  });
  await r.send({
    name: 'invoice.create unpaid order',
    path: '/invoice/create',
    token,
    body: {
      orderIds: [paidId ?? '00000000-0000-4000-8000-000000000000'],
      titleType: 'personal',
      title: '张三',
      email: 'a@example.com',
    },
  });

  // Bad requests
  await r.send({ name: 'unknown path', path: '/no/such/endpoint' });
  await r.send({ name: 'broken JSON', path: '/login', raw: '{"phoneNumber": ' });
  await r.send({
    name: 'report of unknown order',
    path: '/freeCheck/report',
    token,
    body: { orderId: '00000000-0000-4000-8000-000000000000' },
  });
  await r.send({ name: 'report of bad id', path: '/freeCheck/report', token, body: { orderId: 'abc' } });
  await r.send({ name: 'order.detail bad id', path: '/order/detail', token, body: { orderId: 'abc' } });
  await r.send({
    name: 'NUL in body',
    path: '/login',
    body: { phoneNumber: '1391234\u00005678', passWord: password },
  });

  // Logout
  await r.send({ name: 'logout', path: '/user/logout', token });
  await r.send({ name: 'getUserInfo after logout', path: '/getUserInfo', token });
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
