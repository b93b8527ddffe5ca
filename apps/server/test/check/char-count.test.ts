import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildCheckApp,
  type CheckStatus,
  type CheckTestApp,
  call,
  download,
  getReport,
  grantFreeCheck,
  newUser,
  runCheckJobs,
  seedLibrary,
  upload,
} from './check-helper.ts';
import { buildThesis, buildTxt, libraryText } from './fixtures.ts';
import { pdfText } from './pdf-text.ts';

// 字数 is one number for the student: the upload's chars (the price) and the report's 总字数 (web,
// PDF, verification page) count the same characters, whitespace not counted, and 总文字复制比 is
// 重复字数 / 总字数 of the figures shown.

let t: CheckTestApp;
const source = libraryText(401, 1200);
const planted = source.slice(100, 260).replace(/\n/g, '');
// The copy in the paper has spaces in it, as pasted text often has.
const spacedCopy = [...planted].map((c, i) => (i % 10 === 9 ? `${c} ` : c)).join('');
const thesis = buildThesis({ seed: 41, chars: 4000, planted: [planted] });
// Paragraphs indented with spaces and a full-width space, a tab, blank lines between them.
const paperText = thesis.blocks
  .map((b, i) =>
    b.heading ? b.text : `${i % 2 ? '    ' : '\u3000\u3000'}${b.text.replace(planted, spacedCopy)}\t`,
  )
  .join('\n\n\n');
const nonWhitespace = (s: string) => [...s].filter((c) => !/\s/u.test(c)).length;

beforeAll(async () => {
  t = await buildCheckApp();
  await seedLibrary(t, [{ id: 'lib:spaces', title: '田间试验方法', text: source }]);
});

afterAll(async () => {
  await t.close();
});

describe('字数', () => {
  it("the upload's chars equals the report's 总字数 for a paper with spaces and blank lines", async () => {
    expect(paperText).toContain(spacedCopy);
    const user = await newUser(t);
    await grantFreeCheck(t, user.userId);
    const up = await upload(t, user.token, { bytes: buildTxt(paperText), name: 'spaces.txt' });
    expect(up.code).toBe(0);
    expect(up.data.chars).toBe(nonWhitespace(paperText));

    const started = await call<CheckStatus>(
      t,
      '/freeCheck/payFee',
      { orderId: up.data.orderId },
      { token: user.token },
    );
    expect(started.code).toBe(0);
    await runCheckJobs(t);
    const res = await getReport(t, user.token, up.data.orderId);
    expect(res.code).toBe(0);
    const report = res.data;
    const { figures } = report;

    // The same number on the upload and in the report; the text itself still has its whitespace.
    expect(figures.totalChars).toBe(up.data.chars);
    expect(report.text.length).toBeGreaterThan(figures.totalChars);

    // The copy was found; 重复字数 counts its characters, not the spaces in it.
    expect(figures.copiedChars).toBeGreaterThan(0);
    expect(figures.copiedChars).toBeLessThanOrEqual(nonWhitespace(planted));
    expect(figures.copiedChars).toBeGreaterThanOrEqual(nonWhitespace(planted) - 4);
    for (const m of report.matches) expect(m.chars).toBe(nonWhitespace(report.text.slice(m.start, m.end)));
    expect(report.matches.reduce((n, m) => n + m.chars, 0)).toBe(figures.copiedChars);
    expect(report.sections.reduce((n, s) => n + s.chars, 0)).toBe(figures.totalChars);

    // 总文字复制比 = 重复字数 / 总字数, and the rest from the same counts.
    expect(figures.ratio).toBe(figures.copiedChars / figures.totalChars);
    expect(figures.ratioExcludingQuotes).toBe(
      (figures.copiedChars - figures.quotedChars) / figures.totalChars,
    );
    expect(report.sources[0]).toMatchObject({ id: 'lib:spaces', copiedChars: figures.copiedChars, share: 1 });
    expect(figures.maxSingleSourceRatio).toBe(figures.ratio);

    // The verification page and the PDF show the same 总字数.
    const verify = await call<{ totalChars: number; copiedChars: number; ratio: number }>(
      t,
      '/freeCheck/verify',
      {
        reportNo: report.reportNo,
        code: report.verificationCode,
      },
    );
    expect(verify.code).toBe(0);
    expect(verify.data).toMatchObject({
      totalChars: up.data.chars,
      copiedChars: figures.copiedChars,
      ratio: figures.ratio,
    });
    const pdf = await download(t, user.token, up.data.orderId, 'pdf');
    const printed = await pdfText(pdf.rawPayload);
    expect(printed.text).toContain(up.data.chars.toLocaleString('zh-CN'));
  });
});
