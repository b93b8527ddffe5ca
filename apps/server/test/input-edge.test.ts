// Bad input found at the edge, once for every route: a NUL (U+0000) in any text field, and a
// malformed multipart upload, are the client's errors (1001 with a clear message), never 1000.
import { randomBytes } from 'node:crypto';
import { ErrorCode } from '@kyfw/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NUL_MESSAGE } from '../src/plugins/input-guard.ts';
import { buildCheckApp, type CheckTestApp, call, newUser, upload } from './check/check-helper.ts';
import { buildTxt } from './check/fixtures.ts';
import { memoryLogger } from './helper.ts';
import { importSmallLibrary } from './small-library.ts';

let t: CheckTestApp;
let user: { token: string; userId: string };
const log = memoryLogger();

beforeAll(async () => {
  t = await buildCheckApp({ logger: log.logger });
  await importSmallLibrary(t);
  user = await newUser(t);
});
afterAll(() => t.close());

const nul = { code: ErrorCode.VALIDATION, message: NUL_MESSAGE, data: null };

describe('a NUL character in a text field', () => {
  it('is refused with 1001 in JSON bodies, logged in or not', async () => {
    expect(await call(t, '/freeCheck/verify', { reportNo: 'BG\u0000' })).toEqual(nul);
    expect(
      await call(t, '/websiteUser/updateUserInfo', { realName: '张\u0000三' }, { token: user.token }),
    ).toEqual(nul);
    expect(
      await call(
        t,
        '/address/save',
        {
          name: '李四',
          phone: '13800138000',
          province: '北京市',
          city: '北京市',
          district: '海淀区',
          detail: '中关村\u0000大街1号',
        },
        { token: user.token },
      ),
    ).toEqual(nul);
    expect(
      await call(t, '/invoice/create', { title: '某大学\u0000', orderIds: ['1'] }, { token: user.token }),
    ).toEqual(nul);
    // Nested and in keys too.
    expect(await call(t, '/freeCheck/verify', { reportNo: 'BG1', extra: [{ 'a\u0000': 1 }] })).toEqual(nul);
  });

  it('is refused with 1001 in a query string', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/__dev/sms/last?phone=138%00' });
    expect(res.json()).toEqual(nul);
  });

  it('is refused with 1001 in an upload title, author or file name, and nothing is stored', async () => {
    const file = { bytes: buildTxt('城市交通治理研究。'.repeat(200)), name: 'thesis.txt' };
    expect(await upload(t, user.token, file, { title: '题目\u0000' })).toEqual(nul);
    expect(await upload(t, user.token, file, { author: '\u0000' })).toEqual(nul);
    // A raw NUL in the part's filename (as a hostile client sends it).
    const boundary = 'nul-boundary';
    const raw = await t.app.inject({
      method: 'POST',
      url: '/kyfw/web/v1/freeCheck/uploadFile',
      remoteAddress: '10.98.0.1',
      headers: {
        terminal: 'PC',
        token: user.token,
        'content-type': `multipart/form-data; boundary=${boundary}`,
      },
      payload: Buffer.concat([
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="title"\r\n\r\n城市交通\r\n--${boundary}\r\nContent-Disposition: form-data; name="goodsId"\r\n\r\ncheck_undergrad\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="the\u0000sis.txt"\r\nContent-Type: text/plain\r\n\r\n`,
        ),
        Buffer.from(file.bytes),
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]),
    });
    expect(raw.json()).toEqual(nul);
    const orders = await t.db.selectFrom('orders').select('id').where('user_id', '=', user.userId).execute();
    expect(orders).toEqual([]);
  });

  it('never reaches the database as an error', () => {
    expect(log.lines().filter((line) => line.msg === 'unexpected error')).toEqual([]);
  });
});

describe('a malformed upload', () => {
  const send = (contentType: string, payload: Buffer | string) =>
    t.app.inject({
      method: 'POST',
      url: '/kyfw/web/v1/freeCheck/uploadFile',
      remoteAddress: `10.99.0.${Math.floor(Math.random() * 250) + 1}`,
      headers: { terminal: 'PC', token: user.token, 'content-type': contentType },
      payload,
    });
  const form = (boundary: string) =>
    `--${boundary}\r\nContent-Disposition: form-data; name="title"\r\n\r\n城市交通\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\nContent-Type: text/plain\r\n\r\n城市交通治理研究。城市交通治理研究。\r\n--${boundary}--\r\n`;

  it.each([
    ['no boundary', 'multipart/form-data', form('xyz')],
    ['a wrong boundary', 'multipart/form-data; boundary=other', form('xyz')],
    ['a truncated body', 'multipart/form-data; boundary=xyz', form('xyz').slice(0, 120)],
  ])('with %s is 1001 with a clear message', async (_label, contentType, payload) => {
    const res = await send(contentType, payload);
    expect(res.statusCode).toBe(200);
    const body = res.json() as { code: number; message: string };
    expect(body.code).toBe(ErrorCode.VALIDATION);
    expect(body.message).toMatch(/上传内容不完整或格式错误/);
  });

  it('logs none of them as unexpected', () => {
    expect(log.lines().filter((line) => line.msg === 'unexpected error')).toEqual([]);
  });
});

describe('an empty file', () => {
  it('is told that the file is empty', async () => {
    const res = await upload(t, user.token, {
      bytes: new Uint8Array(0),
      name: `empty-${randomBytes(2).toString('hex')}.docx`,
    });
    expect(res.code).toBe(ErrorCode.CHECK_FILE_MISSING);
    expect(res.message).toBe('所选文件是空的（0 字节），请选择有内容的论文文件');
  });
});
