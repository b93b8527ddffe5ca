import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, expect } from 'vitest';
import { SMALL_LIBRARY } from '../../server/test/small-library.ts';
import { launchBrowser, newContext, screenshot } from './browser.ts';
import { fromMigratedTemplate, type RunningServer, repoRoot, startServer } from './server.ts';
import { logInContext, registerUser, type TestUser } from './users.ts';

/** One journey file's server, browser and the page of the test that runs. */
export interface Journey {
  /** A fresh folder for this file (data, downloads); removed after all its tests. */
  readonly work: string;
  readonly server: RunningServer;
  readonly browser: Browser;
  /** Starts the server with `env` and the browser; call it in `beforeAll`. */
  start(env: Record<string, string>): Promise<void>;
  /** Registers a new user, logs a new browser context in as them and opens `path` there. */
  openAsNewUser(path: string): Promise<{ user: TestUser; context: BrowserContext; page: Page }>;
  /** Opens `path` in a new browser context, logged in as `user` (null: not logged in). */
  openAs(
    user: Pick<TestUser, 'token'> | null,
    path: string,
  ): Promise<{ context: BrowserContext; page: Page }>;
  /** Makes `page` the test's page (a screenshot when the test fails, its context closed after it). */
  track(page: Page): Page;
}

/**
 * The set-up every journey file needs, registered once: after each test the page's context is
 * closed (a screenshot named `<name>-<test>` first when it failed); after all of them the browser
 * and the server stop and the work folder goes.
 */
export function useJourney(name: string): Journey {
  const work = mkdtempSync(join(tmpdir(), `kyfw-e2e-${name}-`));
  let server: RunningServer | undefined;
  let browser: Browser | undefined;
  let page: Page | undefined;
  afterEach(async (ctx) => {
    if (ctx.task.result?.state === 'fail' && page) await screenshot(page, `${name}-${ctx.task.name}`);
    await page?.context().close();
    page = undefined;
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    rmSync(work, { recursive: true, force: true });
  });
  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('useJourney: call start() in beforeAll first');
    return value;
  };
  const openAs: Journey['openAs'] = async (user, path) => {
    const baseUrl = started(server).baseUrl;
    const context = await newContext(started(browser), baseUrl);
    if (user) await logInContext(context, baseUrl, user);
    const opened = await context.newPage();
    page = opened;
    await opened.goto(path);
    return { context, page: opened };
  };
  return {
    work,
    get server() {
      return started(server);
    },
    get browser() {
      return started(browser);
    },
    async start(env) {
      server = await startServer(env);
      browser = await launchBrowser();
    },
    openAs,
    async openAsNewUser(path) {
      const user = await registerUser(started(server).baseUrl);
      return { user, ...(await openAs(user, path)) };
    },
    track(opened) {
      page = opened;
      return opened;
    },
  };
}

/**
 * Imports library records (JSON objects) into the comparison library of `dataDir` through the CLI;
 * returns what the CLI said (stderr: its progress and summary).
 */
export function importLibrary(dataDir: string, work: string, records: readonly object[]): string {
  const jsonl = join(work, 'library.jsonl');
  writeFileSync(jsonl, `${records.map((d) => JSON.stringify(d)).join('\n')}\n`);
  fromMigratedTemplate(dataDir);
  const imported = spawnSync(
    process.execPath,
    [join(repoRoot, 'apps/server/src/cli/library-import.ts'), jsonl],
    { cwd: repoRoot, env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' }, encoding: 'utf8' },
  );
  expect(imported.status, imported.stderr).toBe(0);
  return imported.stderr;
}

/**
 * Imports the tests' small library (five journal abstracts, apps/server/test/small-library.ts)
 * through the CLI: a journey that orders a similarity check needs a library, as a similarity goods
 * whose collections are all empty is not sold (issue 12).
 */
export function importSmallLibrary(dataDir: string, work: string): string {
  return importLibrary(dataDir, work, SMALL_LIBRARY);
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
