import { API_PREFIX, ErrorCode, ok, phoneSchema } from '@kyfw/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { parseBody, parseQuery } from '../src/lib/validate.ts';
import { serverModules } from '../src/modules/index.ts';
import { defineRoutesModule } from '../src/modules/types.ts';
import { buildTestApp, memoryLogger, type TestApp } from './helper.ts';

/** Routes that exist only in this test, to exercise the shared request handling. */
const probeModule = defineRoutesModule({
  name: 'probe',
  routes(app) {
    app.post('/probe/echo', async (request) => {
      const body = parseBody(
        request,
        z.object({
          phoneNumber: phoneSchema,
          age: z.number().int().min(18),
          nickname: z.string().max(5).optional(),
        }),
      );
      return ok(body);
    });
    app.get('/probe/page', async (request) =>
      ok(parseQuery(request, z.object({ page: z.coerce.number().int().min(1) }))),
    );
    app.post('/probe/empty', async (request) =>
      ok(parseBody(request, z.object({ note: z.string().optional() }))),
    );
    app.get('/probe/headers', async (request) => ok({ token: request.token, terminal: request.terminal }));
    app.get('/probe/boom', async () => {
      throw new Error('database password is hunter2');
    });
  },
});

const URL_ECHO = `${API_PREFIX}/probe/echo`;
const valid = { phoneNumber: '13800138000', age: 20 };

describe('the wire (spec §7): envelope, bad input, headers', () => {
  let t: TestApp;
  const log = memoryLogger();

  beforeAll(async () => {
    t = await buildTestApp({
      modules: [...serverModules, probeModule],
      env: { BODY_LIMIT_BYTES: '2048' },
      logger: log.logger,
    });
  });
  afterAll(() => t.close());

  it('answers a valid request with code 0 and strips unknown keys', async () => {
    const res = await t.app.inject({ method: 'POST', url: URL_ECHO, payload: { ...valid, isAdmin: true } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ code: 0, message: 'success', data: valid });
  });

  it('answers an unknown API path with NOT_FOUND in the envelope, for any method', async () => {
    for (const method of ['GET', 'POST', 'DELETE'] as const) {
      const res = await t.app.inject({ method, url: `${API_PREFIX}/no/such/endpoint` });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ code: ErrorCode.NOT_FOUND, message: '请求的接口不存在', data: null });
    }
  });

  it('answers malformed JSON with MALFORMED_BODY', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: URL_ECHO,
      headers: { 'content-type': 'application/json' },
      payload: '{"phoneNumber": "138',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      code: ErrorCode.MALFORMED_BODY,
      message: '请求内容格式错误，无法解析',
      data: null,
    });
  });

  it('rejects prototype poisoning as malformed', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: URL_ECHO,
      headers: { 'content-type': 'application/json' },
      payload: '{"__proto__": {"isAdmin": true}}',
    });
    expect(res.json().code).toBe(ErrorCode.MALFORMED_BODY);
  });

  it('answers an unsupported content type with UNSUPPORTED_MEDIA_TYPE', async () => {
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'application/xml']) {
      const res = await t.app.inject({
        method: 'POST',
        url: URL_ECHO,
        headers: { 'content-type': type },
        payload: 'phoneNumber=13800138000',
      });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        code: ErrorCode.UNSUPPORTED_MEDIA_TYPE,
        message: '不支持的请求内容类型',
        data: null,
      });
    }
  });

  it('answers a body over BODY_LIMIT_BYTES with PAYLOAD_TOO_LARGE', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: URL_ECHO,
      payload: { ...valid, nickname: 'x'.repeat(4096) },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ code: ErrorCode.PAYLOAD_TOO_LARGE, message: '请求内容过大', data: null });
  });

  it('answers a malformed URL in the envelope too', async () => {
    const res = await t.app.inject({ method: 'GET', url: `${API_PREFIX}/probe/%E0%A4%A` });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ code: ErrorCode.VALIDATION, message: '请求参数有误', data: null });
  });

  it('treats a POST without a body as an empty object', async () => {
    const bare = await t.app.inject({ method: 'POST', url: `${API_PREFIX}/probe/empty` });
    expect(bare.json()).toEqual({ code: 0, message: 'success', data: {} });
    const emptyJson = await t.app.inject({
      method: 'POST',
      url: `${API_PREFIX}/probe/empty`,
      headers: { 'content-type': 'application/json' },
      payload: '',
    });
    expect(emptyJson.json()).toEqual({ code: 0, message: 'success', data: {} });
  });

  it('names the failing field in Chinese, using the schema message when there is one', async () => {
    const cases: Array<[unknown, string]> = [
      [{ age: 20 }, '请输入手机号码'],
      [{ ...valid, phoneNumber: '12345' }, '请输入正确的手机号码'],
      [{ phoneNumber: '13800138000' }, '字段 age 不能为空'],
      [{ ...valid, age: 'twenty' }, '字段 age 类型错误'],
      [{ ...valid, age: 17 }, '字段 age 不能小于 18'],
      [{ ...valid, nickname: '太长的昵称啊' }, '字段 nickname 长度不能超过 5 个字符'],
      [[1, 2], '请求参数类型错误'],
    ];
    for (const [payload, message] of cases) {
      const res = await t.app.inject({ method: 'POST', url: URL_ECHO, payload: payload as object });
      expect(res.statusCode).toBe(200);
      expect(res.json(), JSON.stringify(payload)).toEqual({
        code: ErrorCode.VALIDATION,
        message,
        data: null,
      });
    }
    const query = await t.app.inject({ method: 'GET', url: `${API_PREFIX}/probe/page?page=0` });
    expect(query.json()).toEqual({ code: ErrorCode.VALIDATION, message: '字段 page 不能小于 1', data: null });
  });

  it('masks unexpected errors and logs them with the request id', async () => {
    const res = await t.app.inject({ method: 'GET', url: `${API_PREFIX}/probe/boom` });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ code: ErrorCode.INTERNAL, message: '服务器繁忙，请稍后再试', data: null });
    expect(res.body).not.toContain('hunter2');

    const requestId = res.headers['x-request-id'];
    expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
    const logged = log.lines().find((line) => line.msg === 'unexpected error');
    expect(logged?.reqId).toBe(requestId);
    expect(JSON.stringify(logged?.err)).toContain('hunter2');
  });

  it('reads the token and terminal headers on every request', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: `${API_PREFIX}/probe/headers`,
      headers: { token: 'abc123', terminal: 'PC' },
    });
    expect(res.json().data).toEqual({ token: 'abc123', terminal: 'PC' });
    const anonymous = await t.app.inject({ method: 'GET', url: `${API_PREFIX}/probe/headers` });
    expect(anonymous.json().data).toEqual({ token: '', terminal: '' });
  });

  it('keeps a sane incoming X-Request-Id and replaces a suspicious one', async () => {
    const kept = await t.app.inject({
      method: 'GET',
      url: `${API_PREFIX}/probe/headers`,
      headers: { 'x-request-id': 'proxy-1234-abcd' },
    });
    expect(kept.headers['x-request-id']).toBe('proxy-1234-abcd');
    const replaced = await t.app.inject({
      method: 'GET',
      url: `${API_PREFIX}/probe/headers`,
      headers: { 'x-request-id': 'evil\nline injected' },
    });
    expect(replaced.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('never logs the session token', async () => {
    await t.app.inject({
      method: 'GET',
      url: `${API_PREFIX}/probe/headers`,
      headers: { token: 'secret-token-xyz' },
    });
    expect(JSON.stringify(log.lines())).not.toContain('secret-token-xyz');
  });

  it('without a web build, page paths get a plain 404', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/user/info' });
    expect(res.statusCode).toBe(404);
    expect(res.body).toContain('npm run build');
  });

  // Last: it uses up this client's allowance of unknown paths.
  it('rate-limits unknown API paths', async () => {
    const codes: number[] = [];
    for (let i = 0; i < 40; i++) {
      const res = await t.app.inject({ method: 'GET', url: `${API_PREFIX}/scan/${i}` });
      expect(res.statusCode).toBe(200);
      codes.push(res.json().code);
    }
    expect(codes.slice(0, 20).every((c) => c === ErrorCode.NOT_FOUND)).toBe(true);
    expect(codes.at(-1)).toBe(ErrorCode.RATE_LIMITED);
    // Real endpoints are not affected.
    const home = await t.app.inject({ method: 'GET', url: `${API_PREFIX}/home/homeInfo` });
    expect(home.json().code).toBe(0);
  });
});
