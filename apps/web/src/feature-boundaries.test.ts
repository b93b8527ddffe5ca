/**
 * The import boundary between features (biome.json, style/noRestrictedImports): a feature is used
 * through its index.ts; its inner files (api/, components/, hooks/, lib/, types.ts …) are its own.
 * Each case lints one probe file, placed where a real file would be, with the repository's rules.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../../..');
const biome = join(root, 'node_modules/.bin/biome');
const work = mkdtempSync(join(tmpdir(), 'kyfw-boundaries-'));
// The repository's configuration without its git integration (the probe directory is no repository).
const config = JSON.parse(readFileSync(join(root, 'biome.json'), 'utf8')) as Record<string, unknown>;
delete config.$schema;
delete config.vcs;
writeFileSync(join(work, 'biome.json'), JSON.stringify(config));

afterAll(() => rmSync(work, { recursive: true, force: true }));

let probes = 0;
/** The rule names Biome reports for `source` placed at `path` (relative to the repository). */
function lint(path: string, source: string): string[] {
  const dir = join(work, String(probes++));
  const file = join(dir, path);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(join(dir, 'biome.json'), JSON.stringify({ extends: ['../biome.json'], root: false }));
  writeFileSync(file, source);
  try {
    execFileSync(biome, ['lint', '--reporter=json', '--only=style/noRestrictedImports', file], {
      cwd: dir,
      encoding: 'utf8',
      stdio: 'pipe',
    });
    return [];
  } catch (error) {
    const out = (error as { stdout?: string }).stdout ?? '';
    const report = JSON.parse(out) as { diagnostics: { category: string }[] };
    return report.diagnostics.map((d) => d.category);
  }
}

const RULE = 'lint/style/noRestrictedImports';

describe('feature import boundary', () => {
  it('refuses another feature’s inner file from a feature component', () => {
    const found = lint(
      'apps/web/src/features/check/components/probe.tsx',
      "import { OrderDetailDrawer } from '../../orders/components/order-detail-drawer';\nexport const x = OrderDetailDrawer;\n",
    );
    expect(found).toContain(RULE);
  });

  it('refuses it from deeper folders and from a feature’s root files', () => {
    expect(
      lint(
        'apps/web/src/features/check/components/report/probe.tsx',
        "import { PaymentDialog } from '../../../payment/components/payment-dialog';\nexport const x = PaymentDialog;\n",
      ),
    ).toContain(RULE);
    expect(
      lint(
        'apps/web/src/features/orders/probe.ts',
        "import type { PayStatus } from '../payment/types';\nexport type X = PayStatus;\n",
      ),
    ).toContain(RULE);
  });

  it('refuses a feature’s inner file from the app shell', () => {
    expect(
      lint(
        'apps/web/src/app/routes/probe.tsx',
        "import { useSession } from '../../features/auth/stores/session-store';\nexport const x = useSession;\n",
      ),
    ).toContain(RULE);
  });

  it('allows another feature’s index, the feature’s own files and the shared folders', () => {
    expect(
      lint(
        'apps/web/src/features/check/components/probe.tsx',
        [
          "import { OrderDetailDrawer } from '../../orders';",
          "import { useCheckList } from '../api/list-checks';",
          "import { request } from '../../../lib/request';",
          'export const x = [OrderDetailDrawer, useCheckList, request];',
          '',
        ].join('\n'),
      ),
    ).toEqual([]);
    expect(
      lint(
        'apps/web/src/features/check/components/report/probe.tsx',
        "import { useDownloadReport } from '../../api/download-report';\nimport { toast } from '../../../../stores/ui-store';\nexport const x = [useDownloadReport, toast];\n",
      ),
    ).toEqual([]);
    expect(
      lint(
        'apps/web/src/app/routes/probe.tsx',
        "import { useSession } from '../../features/auth';\nexport const x = useSession;\n",
      ),
    ).toEqual([]);
  });
});
