/**
 * The server's module boundary rule (scripts/server-boundaries.ts): each case checks a probe file,
 * placed where a real file would be, and the repository itself passes with its allowlist.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkFile, checkTree, compare, keyOf, parseAllowlist } from './server-boundaries.ts';

const root = resolve(import.meta.dirname, '..');
const rulesOf = (path: string, source: string) => checkFile(path, source).map((v) => v.rule);

describe('server module boundaries', () => {
  it('refuses another module’s inner file, from a module and from the app around the modules', () => {
    expect(
      checkFile(
        'apps/server/src/modules/commission/probe.ts',
        "import { ordersRepo } from '../orders/orders.repo.ts';\nexport const x = ordersRepo;\n",
      ),
    ).toEqual([
      {
        rule: 'entry',
        file: 'apps/server/src/modules/commission/probe.ts',
        detail: 'apps/server/src/modules/orders/orders.repo.ts',
      },
    ]);
    expect(
      rulesOf(
        'apps/server/src/modules/orders/operator/probe.ts',
        "import type { X } from '../../check/report/model.ts';\n",
      ),
    ).toEqual(['entry']);
    expect(rulesOf('apps/server/src/app.ts', "export { y } from './modules/accounts/auth.ts';\n")).toEqual([
      'entry',
    ]);
    expect(
      rulesOf('apps/server/src/jobs/probe.ts', "const m = await import('../modules/news/cache.ts');\n"),
    ).toEqual(['entry']);
  });

  it('allows another module’s index.ts, the module’s own files and shared folders', () => {
    const source = [
      "import { orders } from '../orders/index.ts';",
      "import { own } from './commission.repo.ts';",
      "import { deeper } from './parts/part.ts';",
      "import { AppError } from '../../lib/app-error.ts';",
      "import { z } from 'zod';",
      '',
    ].join('\n');
    expect(checkFile('apps/server/src/modules/commission/probe.ts', source)).toEqual([]);
    expect(
      rulesOf('apps/server/src/modules/orders/operator/probe.ts', "import { x } from '../orders.repo.ts';\n"),
    ).toEqual([]);
  });

  it('refuses SQL outside a repository, and allows it in one', () => {
    const query = "export const q = (db) => db.selectFrom('orders').selectAll().execute();\n";
    expect(rulesOf('apps/server/src/modules/orders/probe.service.ts', query)).toEqual(['sql']);
    expect(
      rulesOf(
        'apps/server/src/modules/orders/probe.service.ts',
        "export const q = (db) => db.updateTable('invoices');\n",
      ),
    ).toEqual(['sql']);
    expect(rulesOf('apps/server/src/lib/probe.ts', 'export const q = sql<number>`select 1`;\n')).toEqual([
      'sql',
    ]);
    expect(rulesOf('apps/server/src/modules/orders/probe.repo.ts', query)).toEqual([]);
  });

  it('refuses a service or runtime that hands out the database handle', () => {
    const iface = (member: string) =>
      `export interface ProbeModuleService {\n  start(id: string): Promise<void>;\n  ${member}\n}\n`;
    expect(rulesOf('apps/server/src/modules/home/probe.module.ts', iface('db: Kysely<Database>;'))).toEqual([
      'service-db',
    ]);
    expect(
      rulesOf(
        'apps/server/src/modules/home/probe.ts',
        'export interface ProbeRuntime {\n  readonly db: Kysely<Database>;\n}\n',
      ),
    ).toEqual(['service-db']);
    expect(
      rulesOf('apps/server/src/modules/home/probe.module.ts', iface('count(): Promise<number>;')),
    ).toEqual([]);
  });

  it('refuses file storage reached through the check module, and the import-time sandbox registry', () => {
    expect(
      rulesOf(
        'apps/server/src/modules/library/probe.ts',
        'export const put = (rt, k, b) => rt.check.storage.put(k, b);\n',
      ),
    ).toEqual(['storage']);
    expect(
      rulesOf(
        'apps/server/src/modules/writing/probe.ts',
        "registerSandboxTemplate('writing.probe', () => 'x');\n",
      ),
    ).toEqual(['sandbox-registry']);
  });

  it('the repository passes with its allowlist; a probe violation added to it fails, a fixed one is stale', () => {
    const allowed = parseAllowlist(readFileSync(join(root, 'scripts/server-boundaries.allow.txt'), 'utf8'));
    const today = checkTree(root);
    expect(compare(today, allowed)).toEqual({ added: [], stale: [] });
    const probe = checkFile(
      'apps/server/src/modules/news/probe.ts',
      "import { x } from '../orders/orders.repo.ts';\n",
    );
    expect(compare([...today, ...probe], allowed).added).toEqual([keyOf(probe[0]!)]);
    const fixed = today.filter((v) => keyOf(v) !== [...allowed][0]);
    expect(compare(fixed, allowed).stale).toEqual([[...allowed][0]]);
    // The command `npm run lint` runs.
    expect(
      execFileSync(process.execPath, [join(root, 'scripts/server-boundaries.ts')], { encoding: 'utf8' }),
    ).toMatch(/^server boundaries: \d+ known violations left/);
  });
});
