import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  aiUsageAdminApi,
  consoleApi,
  consoleCommissionApi,
  consoleLibraryApi,
  type Endpoint,
  goodsAdminApi,
  jobsAdminApi,
  newsAdminApi,
  renderStaffPermissionTable,
  STAFF_PERMISSION_NAMES,
  STAFF_PERMISSIONS,
  STAFF_ROLE_TEXTS,
  STAFF_ROLE_VALUES,
  siteAdminApi,
  staffCan,
  userAdminApi,
} from '../src/index.ts';

const DOC = new URL('../../../docs/api/operator.md', import.meta.url);
const BEGIN = '<!-- staff-permissions:begin (generated from STAFF_PERMISSIONS) -->';
const END = '<!-- staff-permissions:end -->';

const CONSOLE_ENDPOINTS = [
  consoleApi,
  jobsAdminApi,
  goodsAdminApi,
  siteAdminApi,
  userAdminApi,
  newsAdminApi,
  consoleCommissionApi,
  consoleLibraryApi,
  aiUsageAdminApi,
].flatMap((api) => Object.values(api) as Endpoint[]);

describe('the staff permission map', () => {
  it('names only known roles, each once, in the order of STAFF_ROLE_VALUES', () => {
    expect(Object.keys(STAFF_ROLE_TEXTS)).toEqual([...STAFF_ROLE_VALUES]);
    for (const permission of STAFF_PERMISSION_NAMES) {
      const roles: readonly string[] = STAFF_PERMISSIONS[permission];
      expect(roles.length, permission).toBeGreaterThan(0);
      expect(roles, permission).toEqual(STAFF_ROLE_VALUES.filter((r) => roles.includes(r)));
    }
  });

  it('every console endpoint but the login names a permission of the map, and every permission is used', () => {
    const used = new Set<string>();
    for (const e of CONSOLE_ENDPOINTS) {
      expect(e.path.startsWith('/admin/'), e.path).toBe(true);
      if (e === consoleApi.login) {
        expect(e.permission).toBeUndefined();
        continue;
      }
      expect(STAFF_PERMISSION_NAMES, e.path).toContain(e.permission);
      used.add(e.permission!);
    }
    expect([...used].sort()).toEqual([...STAFF_PERMISSION_NAMES].sort());
  });

  it('staffCan answers from the map, and no role for nobody', () => {
    expect(staffCan('finance', 'payments.manage')).toBe(true);
    expect(staffCan('support', 'payments.manage')).toBe(false);
    expect(staffCan(undefined, 'console.enter')).toBe(false);
    expect(STAFF_ROLE_VALUES.every((r) => staffCan(r, 'console.enter'))).toBe(true);
  });
});

describe('docs/api/operator.md agrees with the map', () => {
  const doc = readFileSync(DOC, 'utf8');

  it('carries the generated permission × role table', () => {
    const start = doc.indexOf(BEGIN);
    const end = doc.indexOf(END);
    expect(start, `${BEGIN} missing`).toBeGreaterThan(-1);
    const block = doc.slice(start + BEGIN.length, end).trim();
    // On a change to the map: paste this between the markers.
    expect(block, renderStaffPermissionTable()).toBe(renderStaffPermissionTable());
  });

  it("names every console endpoint once, in a row whose Permission is the contract's", () => {
    const byPath = new Map(CONSOLE_ENDPOINTS.map((e) => [e.path, e]));
    const seen = new Map<string, number>();
    const wrong: string[] = [];
    for (const line of doc.split('\n')) {
      if (!line.startsWith('| `')) continue;
      const paths = [...line.matchAll(/`(?:POST|GET) (\/admin\/[^`?\s]+)/g)].map((m) => m[1]!);
      if (paths.length === 0) continue;
      const cells = line.split(/(?<!\\)\|/).map((c) => c.trim());
      const last = cells[cells.length - 2]!;
      for (const path of paths) {
        seen.set(path, (seen.get(path) ?? 0) + 1);
        const e = byPath.get(path);
        if (!e) wrong.push(`${path}: no such console endpoint`);
        else if (last !== (e.permission ? `\`${e.permission}\`` : '–'))
          wrong.push(`${path}: documented ${last}, contract ${e.permission}`);
      }
    }
    expect(wrong).toEqual([]);
    expect(CONSOLE_ENDPOINTS.map((e) => e.path).filter((p) => seen.get(p) !== 1)).toEqual([]);
  });
});
