// Part of `npm run bench`: the web report on a large thesis — an 80,000-character report model with
// 600 marks of all three kinds (apps/e2e/lib/synthetic-report.ts, the model the browser test
// checks the page's behaviour on), answered in place of /freeCheck/report. Measured in Chromium:
// the report page from navigation to its first mark, and a click on the last mark until its source
// passage is shown; in Node: the marked text the page builds (buildMarkedText). Medians of 5.
// These figures were timed assertions in the tests before (6,000 ms, 1,500 ms and 500 ms).
import type { Browser } from 'playwright-core';
import { newContext } from '../apps/e2e/lib/browser.ts';
import { syntheticReport } from '../apps/e2e/lib/synthetic-report.ts';
import { logInContext, registerUser } from '../apps/e2e/lib/users.ts';

const REPEAT = 5;

/**
 * The web app's buildMarkedText, loaded by URL: the web resolves its imports as a bundler does
 * (no file extensions), which the scripts' type check does not follow; Node runs the file as is.
 */
type BuildMarkedText = (
  text: string,
  matches: readonly { index: number; start: number; end: number; kind: string }[],
  sections: readonly { start: number; title: string }[],
) => unknown;
const SEGMENTS = new URL('../apps/web/src/features/check/lib/segments.ts', import.meta.url).href;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

export async function benchReportPage(browser: Browser, baseUrl: string): Promise<void> {
  const model = syntheticReport(80_000, 600);
  const { buildMarkedText } = (await import(SEGMENTS)) as { buildMarkedText: BuildMarkedText };
  const marked: number[] = [];
  for (let i = 0; i < REPEAT + 1; i++) {
    const began = performance.now();
    buildMarkedText(model.text, model.matches, model.sections);
    if (i > 0) marked.push(performance.now() - began); // the first one warms the code up
  }

  const user = await registerUser(baseUrl);
  const context = await newContext(browser, baseUrl);
  await logInContext(context, baseUrl, user);
  await context.route('**/kyfw/web/v1/freeCheck/report', (route) =>
    route.fulfill({
      contentType: 'application/json',
      body: JSON.stringify({ code: 0, message: 'success', data: model }),
    }),
  );
  const shown: number[] = [];
  const answered: number[] = [];
  for (let i = 0; i < REPEAT; i++) {
    const page = await context.newPage();
    await page.goto('/');
    await page.locator('footer').waitFor();
    const began = performance.now();
    await page.goto(`/check/report/${model.orderId}`);
    await page.locator('.rt-mark').first().waitFor();
    shown.push(performance.now() - began);
    const last = page.locator('.rt-mark[data-m="599"]');
    await last.scrollIntoViewIfNeeded();
    const clicked = performance.now();
    await last.click();
    await page.getByTestId('match-panel').getByText('第 600 / 600 处').waitFor();
    answered.push(performance.now() - clicked);
    await page.close();
  }
  await context.close();

  const ms = (v: number[]) => `${median(v).toFixed(0)} ms (${v.map((x) => x.toFixed(0)).join(', ')})`;
  console.log('\nWeb report, 80,000 characters with 600 marks (median of 5)');
  console.log(`  report page, navigation to first mark: ${ms(shown)}; aim < 6000 ms`);
  console.log(`  click on the last mark to its source passage: ${ms(answered)}; aim < 1500 ms`);
  console.log(`  marked text built (buildMarkedText, Node): ${ms(marked)}; aim < 500 ms`);
}
