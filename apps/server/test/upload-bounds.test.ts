// Issue 22, resource exhaustion: every upload route parses through the bounded extraction pool and
// refuses a decompression bomb (nothing stored), has a per-client rate limit, and counts against a
// per-account storage quota whose refusal says in Chinese what to do.
import { randomBytes } from 'node:crypto';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { ErrorCode } from '@kyfw/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPdfBomb } from '../../../packages/simcheck/test/fixtures-src/pdf-samples.ts';
import { buildCheckApp, type CheckTestApp, call, type Envelope, newUser } from './check/check-helper.ts';
import { buildTxt } from './check/fixtures.ts';
import { multipart } from './commission/commission-helper.ts';
import { newOrder, uploadOfflineProof } from './orders/orders-helper.ts';
import { importSmallLibrary } from './small-library.ts';

const RATE = 3;
let t: CheckTestApp;
let bomb: Uint8Array;

beforeAll(async () => {
  t = await buildCheckApp({
    env: { UPLOAD_RATE_LIMIT_PER_MINUTE: String(RATE), ACCOUNT_STORAGE_QUOTA_MB: '1' },
  });
  await importSmallLibrary(t);
  // 0.5 MB that inflates to 500 MB (issue 22's attack), made here: no big binary in the repository.
  bomb = await buildPdfBomb(500 * 1024 * 1024);
}, 120_000);
afterAll(() => t.close());

/** Every user upload route that parses the file, with the form fields it needs. */
const EXTRACTING_ROUTES = [
  {
    path: '/freeCheck/uploadFile',
    fields: { title: '城市交通治理研究', author: '张三', goodsId: 'check_undergrad' },
  },
  { path: '/commission/uploadFile', fields: {} },
  { path: '/weightReduction/submitFile', fields: { kind: 'reduction' } },
  { path: '/aiWriting/recognitionFile', fields: {} },
] as const;

let address = 1;
/** A client address of its own (the rate limit counts per address): `same` reuses the last one. */
function clientAddress(same = false): string {
  if (!same) address++;
  return `10.22.${address >> 8}.${address & 255}`;
}

async function post(
  route: string,
  token: string,
  fields: Record<string, string>,
  file: { bytes: Uint8Array; name: string },
  remoteAddress = clientAddress(),
): Promise<Envelope<unknown>> {
  const body = multipart(fields, file);
  const res = await t.app.inject({
    method: 'POST',
    url: `/kyfw/web/v1${route}`,
    remoteAddress,
    headers: { terminal: 'PC', token, 'content-type': body.contentType },
    payload: body.payload,
  });
  expect(res.statusCode).toBe(200);
  return res.json() as Envelope<unknown>;
}

/** What an account's uploads leave behind: rows of every module that keeps one, and stored files. */
async function keptBy(userId: string) {
  const count = async (table: 'checks' | 'orders' | 'reductions' | 'commission_files') =>
    Number(
      (
        await t.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('user_id', '=', userId)
          .executeTakeFirstOrThrow()
      ).n,
    );
  const files: string[] = [];
  const walk = (dir: string) => {
    let entries: import('node:fs').Dirent[] = [];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      if (e.isDirectory()) walk(path.join(dir, e.name));
      else files.push(path.join(dir, e.name));
    }
  };
  walk(path.join(t.dataDir, 'files'));
  return {
    checks: await count('checks'),
    orders: await count('orders'),
    reductions: await count('reductions'),
    attachments: await count('commission_files'),
    files: files.length,
  };
}

describe('a PDF decompression bomb', { timeout: 120_000 }, () => {
  it('is refused on every upload route that parses, in Chinese, with nothing stored', async () => {
    expect(bomb.length).toBeLessThan(1024 * 1024);
    const user = await newUser(t);
    const before = await keptBy(user.userId);
    for (const route of EXTRACTING_ROUTES) {
      const answer = await post(route.path, user.token, route.fields, { bytes: bomb, name: 'thesis.pdf' });
      expect({ route: route.path, code: answer.code, message: answer.message }).toEqual({
        route: route.path,
        code:
          route.path === '/aiWriting/recognitionFile' ? ErrorCode.VALIDATION : ErrorCode.CHECK_FILE_TOO_LARGE,
        message: '文件解压后内容过大（疑似压缩炸弹），已拒绝解析',
      });
    }
    expect(await keptBy(user.userId)).toEqual(before);
  });
});

describe('the per-client upload limit', () => {
  it(`answers 1009 to the ${RATE + 1}th upload a minute from one address, on every upload route`, async () => {
    const user = await newUser(t);
    const file = { bytes: buildTxt('城市交通治理研究。'.repeat(200)), name: 'a.txt' };
    const routes: { path: string; send: (remoteAddress: string) => Promise<Envelope<unknown>> }[] = [
      ...EXTRACTING_ROUTES.map((route) => ({
        path: route.path,
        send: (remoteAddress: string) => post(route.path, user.token, route.fields, file, remoteAddress),
      })),
      {
        path: '/payment/offline/proof',
        send: async (remoteAddress: string) => {
          const order = await newOrder(t, user.userId);
          const body = multipart({ orderId: order.orderId }, { bytes: PNG, name: 'proof.png' });
          const res = await t.app.inject({
            method: 'POST',
            url: '/kyfw/web/v1/payment/offline/proof',
            remoteAddress,
            headers: { token: user.token, 'content-type': body.contentType },
            payload: body.payload,
          });
          return res.json() as Envelope<unknown>;
        },
      },
    ];
    for (const route of routes) {
      const remoteAddress = clientAddress();
      for (let i = 0; i < RATE; i++) {
        const answer = await route.send(remoteAddress);
        expect({ route: route.path, code: answer.code }).not.toEqual({
          route: route.path,
          code: ErrorCode.RATE_LIMITED,
        });
      }
      const limited = await route.send(remoteAddress);
      expect({ route: route.path, code: limited.code }).toEqual({
        route: route.path,
        code: ErrorCode.RATE_LIMITED,
      });
      expect(limited.message).toMatch(/[\u4e00-\u9fff]/);
      // Another address is not held back.
      expect((await route.send(clientAddress())).code).not.toBe(ErrorCode.RATE_LIMITED);
    }
  });
});

const PNG = Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), Buffer.alloc(200, 7)]);

describe('the per-account storage quota (ACCOUNT_STORAGE_QUOTA_MB=1)', () => {
  it('refuses an upload that would pass it on every storing route, says what to do, and frees room on delete', async () => {
    const user = await newUser(t);
    // 0.6 MB of a short paper padded with blank lines: few characters, many bytes.
    const paper = (name: string) => ({
      bytes: buildTxt(`${'城市交通治理研究。'.repeat(200)}${'\n'.repeat(600 * 1024)}`),
      name,
    });
    const first = await post(
      '/freeCheck/uploadFile',
      user.token,
      EXTRACTING_ROUTES[0].fields,
      paper('a.txt'),
    );
    expect(first.code).toBe(0);
    const { orderId } = first.data as { orderId: string };
    const before = await keptBy(user.userId);

    const full = await post('/freeCheck/uploadFile', user.token, EXTRACTING_ROUTES[0].fields, paper('b.txt'));
    expect(full.code).toBe(ErrorCode.UPLOAD_QUOTA_EXCEEDED);
    expect(full.message).toMatch(
      /^账户的文件存储空间不足：已保存 0\.6 MB，上限 1 MB，放不下这个 0\.6 MB 的文件。请在“我的订单”中删除/,
    );
    expect((await post('/commission/uploadFile', user.token, {}, paper('c.txt'))).code).toBe(
      ErrorCode.UPLOAD_QUOTA_EXCEEDED,
    );
    // The quota is checked before parsing: the bytes of a would-be .docx are enough.
    const docx = { bytes: randomBytes(450 * 1024), name: 'd.docx' };
    expect((await post('/weightReduction/submitFile', user.token, { kind: 'reduction' }, docx)).code).toBe(
      ErrorCode.UPLOAD_QUOTA_EXCEEDED,
    );
    const order = await newOrder(t, user.userId);
    const proof = await uploadOfflineProof(
      t,
      user.token,
      order.orderId,
      Buffer.concat([PNG, Buffer.alloc(450 * 1024)]),
    );
    expect(proof.code).toBe(ErrorCode.UPLOAD_QUOTA_EXCEEDED);
    expect(proof.message).toContain('账户的文件存储空间不足');
    expect(await keptBy(user.userId)).toEqual({ ...before, orders: before.orders + 1 });

    // Deleting the check frees its share: the same upload now fits.
    expect((await call(t, '/freeCheck/deleteOrder', { orderId }, { token: user.token })).code).toBe(0);
    const again = await post(
      '/freeCheck/uploadFile',
      user.token,
      EXTRACTING_ROUTES[0].fields,
      paper('b.txt'),
    );
    expect(again.code).toBe(0);
  });
});
