/**
 * `npm run --silent operator -- create --username <name> --role <role>` — creates a staff account
 * of the operator console (docs/api/operator.md) and prints one JSON line
 * `{"username","password","totpSecret","recoveryCodes"}`: the generated password, the TOTP secret
 * (base32) to add to an authenticator app, and ten one-time recovery codes. All are shown only
 * this once (the secret is stored sealed under STAFF_SECRET_KEY, the codes as HMACs). Uses the database of the current mode
 * (DATABASE_URL, else PGlite under DATA_DIR — stop the server first: the folder is locked).
 */
import { STAFF_ROLES, type StaffRole } from '@kyfw/db';
import { ConfigError, loadConfig } from '../config.ts';
import { isAppError } from '../lib/app-error.ts';
import { createLogger } from '../lib/logger.ts';
import { createStaffService } from '../modules/console/staff.service.ts';
import { createStaffCipher, staffKeyOf } from '../modules/console/staff-secrets.ts';
import { openDatabase } from '../runtime.ts';

const USAGE = `用法：npm run --silent operator -- create --username <用户名> --role <角色>

  用户名：小写字母开头，3–32 位小写字母、数字、_ . -
  角色：admin（管理员）、finance（财务）、fulfilment（履约）、editor（编辑）、support（客服）

输出一行 JSON：{"username","password","totpSecret","recoveryCodes"}。密码、TOTP 密钥与恢复码只显示这一次。`;

class UsageError extends Error {
  override readonly name = 'UsageError';
}

export function parseOperatorArgs(argv: readonly string[]): { username: string; role: StaffRole } {
  const [command, ...rest] = argv;
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
  return { username, role: role as StaffRole };
}

async function main(): Promise<void> {
  let args: { username: string; role: StaffRole };
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
  const handle = await openDatabase(config, logger);
  try {
    const staff = createStaffService({
      db: handle.db,
      scryptCost: config.accounts.passwordScryptCost,
      cipher: createStaffCipher(staffKeyOf(config)),
    });
    const created = await staff.create({ ...args, createdBy: 'cli' });
    await handle.db
      .insertInto('audit_log')
      .values({
        action: 'staff.create',
        outcome: 'ok',
        target: created.username,
        after: JSON.stringify({ role: args.role }),
        detail: JSON.stringify({ via: 'cli' }),
      })
      .execute();
    // The first three fields are the stable shape; the recovery codes follow.
    const { username, password, totpSecret, recoveryCodes } = created;
    process.stdout.write(`${JSON.stringify({ username, password, totpSecret, recoveryCodes })}\n`);
  } catch (error) {
    process.stderr.write(`创建失败：${isAppError(error) ? error.message : String(error)}\n`);
    process.exitCode = 1;
  } finally {
    await handle.close();
  }
}

if (import.meta.main) await main();
