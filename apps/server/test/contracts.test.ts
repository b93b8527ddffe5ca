import { API_PREFIX, ErrorCode, endpoint, ok } from '@kyfw/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { RegisteredRoute } from '../src/app.ts';
import { route } from '../src/lib/route.ts';
import { serverModules } from '../src/modules/index.ts';
import { defineRoutesModule } from '../src/modules/types.ts';
import { buildTestApp, memoryLogger, type TestApp } from './helper.ts';

/**
 * The wire has one source (issue 11): every API route declares its endpoint contract from
 * packages/contracts/src/api, and (lib/route.ts, NODE_ENV=test) an answer outside its contract
 * fails the request — so every answer the integration suite sees is checked against its schema.
 */

/** API paths that speak a platform's protocol, not our envelope (signed by WeChat / the payment platforms). */
const PLATFORM_CALLBACKS = [/^\/pay\/notify\//, /^\/weixin\/callback/];

/**
 * Modules whose routes are being converted in this round (their branches land separately); the
 * test names them so that nothing else can slip through. Emptied when they are converted.
 */
const PENDING_MODULE_PREFIXES: string[] = [];

const drifted = endpoint({
  path: '/probe/drifted',
  data: z.object({ count: z.number() }),
});
const extra = endpoint({
  path: '/probe/extra',
  body: z.object({ name: z.string({ error: '请填写名称' }) }),
  data: z.object({ name: z.string() }),
});
const probeModule = defineRoutesModule({
  name: 'contract-probe',
  routes(app) {
    // A handler whose answer drifted from its contract (a string where the schema says number).
    route(app, drifted, async () => ok({ count: 'three' } as unknown as { count: number }));
    // A handler that returns more than its contract declares (e.g. an internal column).
    route(app, extra, async ({ body }) => ok({ name: body.name, secretColumn: 'internal' }));
  },
});

describe('contracts: every API route has one, and answers outside it fail', () => {
  let t: TestApp;
  const log = memoryLogger();
  beforeAll(async () => {
    t = await buildTestApp({ modules: [...serverModules, probeModule], logger: log.logger });
  });
  afterAll(async () => t?.close());

  it('every route under the API prefix declares an endpoint whose path and method are its own', () => {
    const table = (t.app as unknown as { routeTable: RegisteredRoute[] }).routeTable;
    const api = table.filter((r) => r.url.startsWith(`${API_PREFIX}/`) && r.method !== 'HEAD');
    expect(api.length).toBeGreaterThan(50);
    const missing: string[] = [];
    for (const r of api) {
      const path = r.url.slice(API_PREFIX.length);
      if (PLATFORM_CALLBACKS.some((p) => p.test(path))) continue;
      if (PENDING_MODULE_PREFIXES.some((p) => path.startsWith(p))) continue;
      if (!r.endpoint) {
        missing.push(`${r.method} ${path}`);
        continue;
      }
      expect(r.endpoint.path, r.url).toBe(path);
      expect([r.endpoint.method, 'GET'], r.url).toContain(r.method);
      expect(r.endpoint.data, r.url).toBeDefined();
    }
    expect(missing).toEqual([]);
  });

  it('an answer outside its contract is a failure in tests, logged with the endpoint and the field', async () => {
    const response = await t.app.inject({ method: 'POST', url: `${API_PREFIX}/probe/drifted`, payload: {} });
    expect(response.json()).toMatchObject({ code: ErrorCode.INTERNAL, data: null });
    expect(JSON.stringify(log.lines())).toContain('/probe/drifted answered outside its contract: count');
  });

  it('requests are parsed by the contract and only the fields it declares leave the server', async () => {
    const bad = await t.app.inject({ method: 'POST', url: `${API_PREFIX}/probe/extra`, payload: {} });
    expect(bad.json()).toEqual({ code: ErrorCode.VALIDATION, message: '请填写名称', data: null });
    const good = await t.app.inject({
      method: 'POST',
      url: `${API_PREFIX}/probe/extra`,
      payload: { name: '张三', unknownKey: 1 },
    });
    expect(good.json()).toEqual({ code: 0, message: 'success', data: { name: '张三' } });
  });
});
