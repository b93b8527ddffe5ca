import {
  API_PREFIX,
  aiUsageAdminApi,
  consoleApi,
  consoleCommissionApi,
  consoleLibraryApi,
  type Endpoint,
  ErrorCode,
  goodsAdminApi,
  jobsAdminApi,
  newsAdminApi,
  rolesOf,
  STAFF_ROLE_VALUES,
  type StaffRoleName,
  siteAdminApi,
  staffCan,
  userAdminApi,
} from '@kyfw/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RegisteredRoute } from '../../src/app.ts';
import { createStaffService } from '../../src/modules/console/staff.service.ts';
import { buildOrdersApp, type OrdersTestApp } from '../orders/orders-helper.ts';
import { consoleCalls } from './console-helper.ts';

/**
 * Role × staff endpoint against the one permission map (packages/contracts staff-permissions.ts):
 * every console route the server registers names a permission in its contract, and every role is
 * let through (anything but 1003/1004) or refused (1004, audited) exactly as the map says.
 */

const CONSOLE_APIS = [
  consoleApi,
  jobsAdminApi,
  goodsAdminApi,
  siteAdminApi,
  userAdminApi,
  newsAdminApi,
  consoleCommissionApi,
  consoleLibraryApi,
  aiUsageAdminApi,
];

let t: OrdersTestApp;
const cookies = new Map<StaffRoleName, string>();

beforeAll(async () => {
  t = await buildOrdersApp();
  const calls = consoleCalls(t);
  const staff = createStaffService({ db: t.db, scryptCost: 10, now: t.clock.now });
  for (const role of STAFF_ROLE_VALUES) {
    cookies.set(role, await calls.cookieOf(await staff.create({ username: `perm_${role}`, role })));
  }
});

afterAll(async () => {
  await t.close();
});

function consoleRoutes(): { method: string; path: string; endpoint: Endpoint | undefined }[] {
  const table = (t.app as unknown as { routeTable: RegisteredRoute[] }).routeTable;
  return table
    .filter((r) => r.url.startsWith(`${API_PREFIX}/admin/`) && r.method !== 'HEAD')
    .map((r) => ({ method: r.method, path: r.url.slice(API_PREFIX.length), endpoint: r.endpoint }));
}

async function call(method: string, path: string, role: StaffRoleName): Promise<number> {
  const res = await t.app.inject({
    method: method as 'GET' | 'POST',
    url: `${API_PREFIX}${path}`,
    headers: {
      cookie: cookies.get(role)!,
      ...(method === 'POST' ? { 'content-type': 'application/json' } : {}),
    },
    ...(method === 'POST' ? { payload: '{}' } : {}),
  });
  // A refusal is always the envelope; a download let through may send its file (0: let through).
  if (!String(res.headers['content-type']).includes('application/json')) return 0;
  return (res.json() as { code: number }).code;
}

describe('staff permissions: one map, enforced on every console endpoint', () => {
  it('every console route but the login names its permission, and every console contract is served', () => {
    const routes = consoleRoutes();
    expect(routes.length).toBeGreaterThan(60);
    const without = routes.filter((r) => r.path !== consoleApi.login.path && !r.endpoint?.permission);
    expect(without.map((r) => `${r.method} ${r.path}`)).toEqual([]);
    const served = new Set(routes.map((r) => r.path));
    const declared = CONSOLE_APIS.flatMap((api) => Object.values(api) as Endpoint[]);
    expect(declared.filter((e) => !served.has(e.path)).map((e) => e.path)).toEqual([]);
    for (const e of declared) {
      if (e.path !== consoleApi.login.path) expect(e.permission, e.path).toBeDefined();
    }
  });

  // ~70 endpoints × 5 roles through the whole app: seconds, more on a busy machine.
  it('each role is let through or refused on each endpoint exactly as the map says', {
    timeout: 300_000,
  }, async () => {
    const mismatches: string[] = [];
    const routes = consoleRoutes().filter(
      (r) => r.path !== consoleApi.login.path && r.path !== consoleApi.logout.path,
    );
    for (const r of routes) {
      const permission = r.endpoint!.permission!;
      for (const role of STAFF_ROLE_VALUES) {
        const code = await call(r.method, r.path, role);
        const allowed = code !== ErrorCode.FORBIDDEN && code !== ErrorCode.UNAUTHORIZED;
        if (allowed !== staffCan(role, permission)) {
          mismatches.push(`${role} ${r.method} ${r.path} (${permission}): answered ${code}`);
        }
      }
    }
    expect(mismatches).toEqual([]);
  });

  it('a refusal names the roles of the permission and is written to the audit log', async () => {
    const code = await call('POST', consoleApi.staffList.path, 'support');
    expect(code).toBe(ErrorCode.FORBIDDEN);
    const row = await t.db
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'staff.list')
      .where('outcome', '=', 'refused')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(row.role).toBe('support');
    expect(row.detail).toMatchObject({ reason: 'role', allowed: [...rolesOf('staff.manage')] });
  });

  it('every role may log out (its own session)', async () => {
    for (const role of STAFF_ROLE_VALUES) {
      expect(await call('POST', consoleApi.logout.path, role)).toBe(0);
      expect(await call('POST', consoleApi.me.path, role)).toBe(ErrorCode.UNAUTHORIZED);
    }
  });
});
