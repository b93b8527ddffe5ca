// The console's comparison library (issue 15) and the empty library of a fresh install (issue 12):
// on a server whose library is empty, /check sells no similarity goods (暂不可选 with the reason); an
// admin created with the CLI logs in at /admin, opens 比对库, imports a small .jsonl into 学术期刊库,
// watches the import run to 已完成 with its summary, sees the statistics count the documents, finds
// one by its author and removes it; /check then sells 本科 again. Screenshots in
// apps/e2e/test-results (library-*.png).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { totpCode } from '../../server/src/modules/console/totp.ts';
import { SMALL_LIBRARY } from '../../server/test/small-library.ts';
import { screenshot } from '../lib/browser.ts';
import { useJourney } from '../lib/journey.ts';
import { createStaffAccount, type StaffAccount } from '../lib/staff.ts';

const journey = useJourney('library');
let admin: StaffAccount;

beforeAll(async () => {
  const dataDir = join(journey.work, 'data');
  mkdirSync(dataDir);
  admin = createStaffAccount(dataDir, 'chenlib', 'admin');
  await journey.start({ DATA_DIR: dataDir });
});

describe('comparison library', () => {
  it('a fresh install sells no similarity check; an admin imports a file in the console and 本科 is on sale', async () => {
    const { page: check } = await journey.openAs(null, '/check');
    const undergrad = check.locator('[data-goods-id="check_undergrad"]');
    await expect.poll(() => undergrad.innerText()).toContain('暂不可选');
    expect(await undergrad.innerText()).toContain('暂无收录任何文献');
    await screenshot(check, 'library-check-empty');
    await check.context().close();

    const { page } = await journey.openAs(null, '/admin/login');
    await page.getByLabel('用户名').fill(admin.username);
    await page.getByLabel('密码').fill(admin.password);
    await page.getByLabel('动态验证码').fill(totpCode(admin.totpSecret, new Date()));
    await page.getByRole('button', { name: '登录' }).click();
    await page.getByRole('menuitem', { name: '比对库' }).click();
    const stats = page.getByTestId('library-stats');
    await expect.poll(() => stats.innerText()).toContain('学术期刊库');
    await expect.poll(() => stats.innerText()).toContain('暂停销售');

    const file = join(journey.work, '期刊摘要.jsonl');
    writeFileSync(file, `${SMALL_LIBRARY.map((r) => JSON.stringify(r)).join('\n')}\n`);
    await page.locator('input[type=file]').setInputFiles(file);
    await page.getByRole('button', { name: '开始导入' }).click();
    const imports = page.getByTestId('library-imports');
    await expect.poll(() => imports.innerText()).toContain('期刊摘要.jsonl');
    await expect.poll(() => imports.innerText(), { timeout: 60_000 }).toContain('已完成');
    expect(await imports.innerText()).toContain('新增 5 篇');
    // The statistics reload when the import ends: five documents in 学术期刊库, 本科 on sale.
    const journal = stats.locator('tr', { hasText: '学术期刊库' });
    await expect.poll(() => journal.innerText()).toMatch(/学术期刊库\s+5\s/);
    await expect
      .poll(() => stats.locator('.library-admin__good', { hasText: '本科' }).innerText())
      .toContain('在售');
    await screenshot(page, 'library-imported');

    // Search by an author, remove that document after confirming.
    await page.getByLabel('题名、作者或文档编号').first().fill('周远');
    await page.getByLabel('题名、作者或文档编号').first().press('Enter');
    const row = page.locator('.ant-table-row', { hasText: '黄渤海沿岸鸻鹬类候鸟的迁徙停歇地' });
    await row.waitFor();
    await row.getByRole('button', { name: '删除' }).click();
    await page.locator('.ant-popconfirm').getByRole('button', { name: '删除' }).click();
    await expect.poll(() => row.count()).toBe(0);
    await expect.poll(() => journal.innerText()).toMatch(/学术期刊库\s+4\s/);
    await screenshot(page, 'library-removed');

    const { page: again } = await journey.openAs(null, '/check');
    const card = again.locator('[data-goods-id="check_undergrad"]');
    await expect.poll(() => card.innerText()).toContain('学术期刊库 4 篇');
    expect(await card.innerText()).not.toContain('暂不可选');
  });
});
