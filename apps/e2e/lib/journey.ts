import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { expect } from 'vitest';
import { repoRoot } from './server.ts';

/** Imports library records (JSON objects) into the comparison library of `dataDir` through the CLI. */
export function importLibrary(dataDir: string, work: string, records: readonly object[]): void {
  const jsonl = join(work, 'library.jsonl');
  writeFileSync(jsonl, `${records.map((d) => JSON.stringify(d)).join('\n')}\n`);
  const imported = spawnSync(
    process.execPath,
    [join(repoRoot, 'apps/server/src/cli/library-import.ts'), jsonl],
    { cwd: repoRoot, env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' }, encoding: 'utf8' },
  );
  expect(imported.status, imported.stderr).toBe(0);
}

/**
 * Pays the order the page's payment dialog shows through the payment sandbox's 模拟支付 page;
 * returns the dialog's text (amount, goods) as it was before paying.
 */
export async function payInSandbox(context: BrowserContext, page: Page): Promise<string> {
  const dialog = page.locator('.pay-dialog');
  const sandboxLink = dialog.getByRole('link', { name: /模拟支付/ });
  await sandboxLink.waitFor({ timeout: 30_000 });
  const text = await dialog.innerText();
  const payPage = await context.newPage();
  await payPage.goto((await sandboxLink.getAttribute('href')) ?? '');
  await payPage.getByRole('button', { name: /支付/ }).first().click();
  await expect.poll(() => payPage.locator('body').innerText()).toContain('支付成功');
  await payPage.close();
  return text;
}
