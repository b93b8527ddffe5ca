// Staff accounts of the console for journeys, created the documented way: the operator CLI
// (`npm run --silent operator -- create`, docs/api/operator.md) on the data folder, before the
// server that will own it starts.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { fromMigratedTemplate, repoRoot } from './server.ts';

export interface StaffAccount {
  username: string;
  password: string;
  totpSecret: string;
  /** Ten single-use codes that log in instead of a TOTP code. */
  recoveryCodes: string[];
}

/** Creates a staff account in `dataDir` (its database must not be open yet) and returns its secrets. */
export function createStaffAccount(dataDir: string, username: string, role: string): StaffAccount {
  fromMigratedTemplate(dataDir);
  return JSON.parse(
    execFileSync(
      process.execPath,
      [join(repoRoot, 'apps/server/src/cli/operator.ts'), 'create', '--username', username, '--role', role],
      { cwd: repoRoot, env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'warn', DATABASE_URL: '' } },
    ).toString(),
  ) as StaffAccount;
}
