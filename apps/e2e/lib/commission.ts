// What the commission journeys do in the console's 委托办理 drawer.
import type { Page } from 'playwright-core';
import { expect } from 'vitest';

/** Uploads `reportFile` in the open commission drawer, marks the commission done and waits for 已完成. */
export async function deliverReport(op: Page, reportFile: string): Promise<void> {
  const drawer = op.locator('.ant-drawer');
  await drawer.locator('input[type=file]').setInputFiles(reportFile);
  await expect.poll(() => drawer.innerText()).toContain(reportFile.split('/').at(-1)!);
  await drawer.getByRole('button', { name: '标记完成并通知用户' }).click();
  await op
    .locator('.ant-popconfirm')
    .getByRole('button', { name: /确\s*定/ })
    .click();
  await expect.poll(() => drawer.innerText()).toContain('已完成');
}
