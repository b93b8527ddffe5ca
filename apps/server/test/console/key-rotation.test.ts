import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Database, DbHandle, Kysely } from '@kyfw/db';
import { createTestDb } from '@kyfw/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findSealedKey } from '../../src/modules/console/staff.repo.ts';
import { createStaffService, type StaffCredentials } from '../../src/modules/console/staff.service.ts';
import { KeyRotationError, rotateStaffKey } from '../../src/modules/console/staff-key-rotation.ts';
import { createStaffCipher, RECOVERY_MAC_KEY } from '../../src/modules/console/staff-secrets.ts';
import { totpCode } from '../../src/modules/console/totp.ts';
import {
  buildOrdersApp,
  createClock,
  type OrdersTestApp,
  openPersistentDb,
  SECOND,
} from '../orders/orders-helper.ts';
import { consoleCalls } from './console-helper.ts';

const K1 = 'first-staff-secret-key-0123456789abcdef';
const K2 = 'second-staff-secret-key-0123456789abcdef';
const WRONG = 'not-the-old-staff-secret-key-0123456789';

let handle: DbHandle;
const clock = createClock(new Date().toISOString());
const apps: OrdersTestApp[] = [];

beforeAll(async () => {
  handle = await createTestDb();
});

afterAll(async () => {
  for (const app of apps) await app.closeApp();
  await handle.close();
});

/** A server process on the shared database with these keys (the previous one stopped). */
async function server(env: Record<string, string>): Promise<OrdersTestApp> {
  await apps.pop()?.closeApp();
  const app = await buildOrdersApp({ db: handle, clock, env });
  apps.push(app);
  return app;
}

/** What a rotation may change: every stored secret and sealed key. */
async function snapshot(db: Kysely<Database>) {
  return {
    secrets: await db
      .selectFrom('staff_accounts')
      .select(['username', 'totp_secret'])
      .orderBy('username')
      .execute(),
    keys: await db.selectFrom('staff_sealed_keys').select(['name', 'sealed']).execute(),
  };
}

async function logsIn(app: OrdersTestApp, account: StaffCredentials, secondFactor?: string) {
  return (await consoleCalls(app).login(account, secondFactor)).body.code;
}

describe('rotating STAFF_SECRET_KEY (operator -- rotate-key)', () => {
  let before: StaffCredentials;
  let during: StaffCredentials;

  it('while both keys are configured, accounts sealed under either log in', async () => {
    const old = await server({ STAFF_SECRET_KEY: K1 });
    before = await old.root.services.console.staff.create({ username: 'rot_before', role: 'admin' });
    expect(await logsIn(old, before)).toBe(0);

    const changing = await server({ STAFF_SECRET_KEY: K2, STAFF_SECRET_KEY_PREVIOUS: K1 });
    expect(await logsIn(changing, before)).toBe(0);
    // An account made during the change is sealed under the new key already.
    during = await changing.root.services.console.staff.create({ username: 'rot_during', role: 'finance' });
    expect(await logsIn(changing, during)).toBe(0);
    expect(await logsIn(changing, before, before.recoveryCodes[0])).toBe(0);
  });

  it('a wrong old key is refused and changes nothing', async () => {
    const unchanged = await snapshot(handle.db);
    await expect(rotateStaffKey(handle.db, { oldKey: WRONG, newKey: K2 })).rejects.toThrow(KeyRotationError);
    await expect(rotateStaffKey(handle.db, { oldKey: WRONG, newKey: K2 })).rejects.toThrow(
      /rot_before 的动态验证码密钥无法用旧密钥或新密钥解开.*未做任何更改/,
    );
    await expect(rotateStaffKey(handle.db, { oldKey: K2, newKey: K2 })).rejects.toThrow('新旧密钥相同');
    expect(await snapshot(handle.db)).toEqual(unchanged);
  });

  it('re-seals every secret in one go; re-running changes nothing', async () => {
    const first = await rotateStaffKey(handle.db, { oldKey: K1, newKey: K2 });
    expect(first).toEqual({ resealed: 1, unchanged: 1, recoveryMacKey: 'moved' });
    const after = await snapshot(handle.db);
    expect(after.keys.map((k) => k.name)).toEqual([RECOVERY_MAC_KEY]);
    // Nothing left that only the old key opens.
    const oldOnly = createStaffCipher(K1);
    for (const { totp_secret } of after.secrets) expect(() => oldOnly.open(totp_secret)).toThrow();

    expect(await rotateStaffKey(handle.db, { oldKey: K1, newKey: K2 })).toEqual({
      resealed: 0,
      unchanged: 2,
      recoveryMacKey: 'unchanged',
    });
    // A wrong old key after the rotation finds nothing to do either.
    expect((await rotateStaffKey(handle.db, { oldKey: WRONG, newKey: K2 })).resealed).toBe(0);
    expect(await snapshot(handle.db)).toEqual(after);
  });

  it('after the rotation, with the new key alone: TOTP codes and recovery codes still log in', async () => {
    const rotated = await server({ STAFF_SECRET_KEY: K2 });
    expect(await logsIn(rotated, before)).toBe(0);
    expect(await logsIn(rotated, during)).toBe(0);
    expect(await logsIn(rotated, before, before.recoveryCodes[1])).toBe(0);
    expect(await logsIn(rotated, during, during.recoveryCodes[0])).toBe(0);
    // A used code stays used.
    expect(await logsIn(rotated, before, before.recoveryCodes[0])).not.toBe(0);
    // New accounts and a second rotation (K2 -> K1 again) work the same way.
    const next = await rotated.root.services.console.staff.create({ username: 'rot_after', role: 'support' });
    expect(await rotateStaffKey(handle.db, { oldKey: K2, newKey: K1 })).toEqual({
      resealed: 3,
      unchanged: 0,
      recoveryMacKey: 'resealed',
    });
    const back = await server({ STAFF_SECRET_KEY: K1 });
    expect(await logsIn(back, next, next.recoveryCodes[0])).toBe(0);
    expect(await logsIn(back, before)).toBe(0);
  });
});

describe('the command line', () => {
  const cli = path.resolve(import.meta.dirname, '../../src/cli/operator.ts');
  let dataDir: string;

  beforeAll(() => {
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'kyfw-rotate-'));
  });
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  function run(env: Record<string, string>) {
    return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
      const child = spawn(process.execPath, [cli, 'rotate-key'], {
        cwd: dataDir,
        env: {
          PATH: process.env.PATH ?? '',
          NODE_ENV: 'development',
          DATA_DIR: dataDir,
          USER: 'ops-alice',
          ...env,
        },
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      child.on('error', reject);
      child.on('close', (code) => resolve({ code, stdout, stderr }));
    });
  }

  it('refuses a wrong old key (exit 1, nothing changed), then rotates; logins work under the new key', async () => {
    let db = await openPersistentDb(dataDir);
    const staff = createStaffService({ db: db.db, scryptCost: 10, cipher: createStaffCipher(K1) });
    const account = await staff.create({ username: 'cli_rot', role: 'admin' });
    const stored = await snapshot(db.db);
    await db.close();

    const wrong = await run({ STAFF_SECRET_KEY: K2, STAFF_SECRET_KEY_PREVIOUS: WRONG });
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain('密钥轮换失败');
    expect(wrong.stderr).toContain('未做任何更改');
    expect(wrong.stderr).not.toContain(K2);
    const missing = await run({ STAFF_SECRET_KEY: K2 });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('STAFF_SECRET_KEY_PREVIOUS');

    db = await openPersistentDb(dataDir);
    try {
      expect(await snapshot(db.db)).toEqual(stored);
    } finally {
      await db.close();
    }
    const ok = await run({ STAFF_SECRET_KEY: K2, STAFF_SECRET_KEY_PREVIOUS: K1 });
    expect(ok.code, ok.stderr).toBe(0);
    expect(JSON.parse(ok.stdout)).toEqual({ resealed: 1, unchanged: 0, recoveryMacKey: 'moved' });

    db = await openPersistentDb(dataDir);
    try {
      const now = new Date(Date.now() + 60 * SECOND);
      const rotated = createStaffService({
        db: db.db,
        scryptCost: 10,
        now: () => now,
        cipher: createStaffCipher(K2, () => findSealedKey(db.db, RECOVERY_MAC_KEY)),
      });
      const login = { username: 'cli_rot', password: account.password, ip: null };
      await expect(
        rotated.login({ ...login, totpCode: totpCode(account.totpSecret, now) }),
      ).resolves.toBeTruthy();
      await expect(rotated.login({ ...login, totpCode: account.recoveryCodes[0]! })).resolves.toBeTruthy();
      const audit = await db.db
        .selectFrom('audit_log')
        .select(['action', 'outcome', 'username', 'role'])
        .where('action', '=', 'staff.rotateKey')
        .orderBy('id')
        .execute();
      expect(audit.map((r) => r.outcome)).toEqual(['refused', 'ok']);
      // 操作人 of a command-line action: the shell user who ran it, role cli (命令行 in the console).
      expect(audit.map((r) => [r.username, r.role])).toEqual([
        ['cli:ops-alice', 'cli'],
        ['cli:ops-alice', 'cli'],
      ]);
    } finally {
      await db.close();
    }
  });
});
