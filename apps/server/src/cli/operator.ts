/**
 * `npm run --silent operator -- rotate-key` — seals every staff secret under a new STAFF_SECRET_KEY
 * (the old one in STAFF_SECRET_KEY_PREVIOUS), in one transaction, safe to re-run; prints one JSON
 * line `{"resealed","unchanged","recoveryMacKey"}` (staff-key-rotation.ts, README).
 *
 * `npm run --silent operator -- create --username <name> --role <role>` — creates a staff account
 * of the operator console (docs/api/operator.md) and prints one JSON line
 * `{"username","password","totpSecret","recoveryCodes"}`: the generated password, the TOTP secret
 * (base32) to add to an authenticator app, and ten one-time recovery codes. All are shown only
 * this once (the secret is stored sealed under STAFF_SECRET_KEY, the codes as HMACs). Uses the database of the current mode
 * (DATABASE_URL, else PGlite under DATA_DIR — stop the server first: the folder is locked).
 */
import { type Database, type Kysely, STAFF_ROLES, type StaffRole } from '@kyfw/db';
import { appendAudit, cliActor } from '../audit/index.ts';
import { ConfigError, loadConfig } from '../config.ts';
import { isAppError } from '../lib/app-error.ts';
import { createLogger } from '../lib/logger.ts';
import { findSealedKey } from '../modules/console/staff.repo.ts';
import { createStaffService } from '../modules/console/staff.service.ts';
import { KeyRotationError, rotateStaffKey } from '../modules/console/staff-key-rotation.ts';
import { createStaffCipher, RECOVERY_MAC_KEY, staffKeyOf } from '../modules/console/staff-secrets.ts';
import { openDatabase } from '../runtime.ts';

const USAGE = `用法：npm run --silent operator -- create --username <用户名> --role <角色>
      npm run --silent operator -- rotate-key

create：创建运营账号
  用户名：小写字母开头，3–32 位小写字母、数字、_ . -
  角色：admin（管理员）、finance（财务）、fulfilment（履约）、editor（编辑）、support（客服）
  输出一行 JSON：{"username","password","totpSecret","recoveryCodes"}。密码、TOTP 密钥与恢复码只显示这一次。

rotate-key：把所有运营账号的密钥改用新的 STAFF_SECRET_KEY 加密（旧密钥放在 STAFF_SECRET_KEY_PREVIOUS），
  一个事务内完成，可重复执行；旧密钥不对时拒绝且不做任何更改。
  输出一行 JSON：{"resealed","unchanged","recoveryMacKey"}。`;

class UsageError extends Error {
  override readonly name = 'UsageError';
}

export type OperatorCommand =
  | { command: 'create'; username: string; role: StaffRole }
  | { command: 'rotate-key' };

export function parseOperatorArgs(argv: readonly string[]): OperatorCommand {
  const [command, ...rest] = argv;
  if (command === 'rotate-key') {
    if (rest.length > 0) throw new UsageError(`未知参数 ${rest[0]}\n\n${USAGE}`);
    return { command };
  }
  if (command !== 'create') throw new UsageError(USAGE);
  let username: string | undefined;
  let role: string | undefined;
  for (let i = 0; i < rest.length; i++) {
    const a = rest[i];
    if (a === '--username') username = rest[++i];
    else if (a === '--role') role = rest[++i];
    else throw new UsageError(`未知参数 ${a}\n\n${USAGE}`);
  }
  if (!username || !/^[a-z][a-z0-9_.-]{2,31}$/.test(username))
    throw new UsageError(`用户名格式错误\n\n${USAGE}`);
  if (!role || !(STAFF_ROLES as readonly string[]).includes(role))
    throw new UsageError(`角色不正确\n\n${USAGE}`);
  return { command, username, role: role as StaffRole };
}

async function main(): Promise<void> {
  let args: OperatorCommand;
  try {
    args = parseOperatorArgs(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n`);
    process.exit(2);
  }
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
  const logger = createLogger({ ...config, logLevel: 'warn' });
  if (args.command === 'rotate-key') {
    const { secretKey: newKey, previousSecretKey: oldKey } = config.console;
    if (!newKey || !oldKey) {
      process.stderr.write(
        '请设置 STAFF_SECRET_KEY（新密钥）和 STAFF_SECRET_KEY_PREVIOUS（旧密钥；未配置过时即 DATA_DIR/secrets/staff-secret.key 的内容）\n',
      );
      process.exit(2);
    }
    const handle = await openDatabase(config, logger);
    try {
      const result = await rotateStaffKey(handle.db, { oldKey, newKey });
      await auditCli(handle.db, 'staff.rotateKey', 'ok', null, result);
      process.stdout.write(`${JSON.stringify(result)}\n`);
    } catch (error) {
      const message = error instanceof KeyRotationError ? error.message : String(error);
      await auditCli(handle.db, 'staff.rotateKey', 'refused', null, { message }).catch(() => undefined);
      process.stderr.write(`密钥轮换失败：${message}\n`);
      process.exitCode = 1;
    } finally {
      await handle.close();
    }
    return;
  }
  const handle = await openDatabase(config, logger);
  try {
    const staff = createStaffService({
      db: handle.db,
      scryptCost: config.accounts.passwordScryptCost,
      cipher: createStaffCipher(
        { current: staffKeyOf(config), previous: config.console.previousSecretKey },
        () => findSealedKey(handle.db, RECOVERY_MAC_KEY),
      ),
    });
    const created = await staff.create({ username: args.username, role: args.role, createdBy: 'cli' });
    await auditCli(handle.db, 'staff.create', 'ok', created.username, { via: 'cli' }, { role: args.role });
    // The first three fields are the stable shape; the recovery codes follow.
    const { username, password, totpSecret, recoveryCodes } = created;
    process.stdout.write(`${JSON.stringify({ username, password, totpSecret, recoveryCodes })}\n`);
  } catch (error) {
    const message = isAppError(error) ? error.message : String(error);
    await auditCli(handle.db, 'staff.create', 'failed', args.username, { message }).catch(() => undefined);
    process.stderr.write(`创建失败：${message}\n`);
    process.exitCode = 1;
  } finally {
    await handle.close();
  }
}

/** The command line's audit row: who is `cli:<OS user>` with role `cli` (there is no staff session). */
async function auditCli(
  db: Kysely<Database>,
  action: string,
  outcome: 'ok' | 'refused' | 'failed',
  target: string | null,
  detail: unknown,
  after?: unknown,
): Promise<void> {
  await appendAudit(db, {
    ...cliActor(),
    staffId: null,
    action,
    outcome,
    target,
    after,
    detail: { via: 'cli', ...(detail as object) },
    ip: null,
    userAgent: null,
    at: new Date(),
  });
}

if (import.meta.main) await main();
