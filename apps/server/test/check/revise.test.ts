// Revise in the report (issue 24): a finished check's paragraph edited and re-checked at once; the
// live figures are those of a full check of the same text; the working copy and versions are kept,
// downloaded as .docx (the upload's .docx edited in place), limited per check and account and day,
// deleted with the check, exported with the account and erased with it.
import type { LiveFigures, ReportModel } from '@kyfw/contracts';
import { ErrorCode } from '@kyfw/contracts';
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queuePaidCheck } from '../../src/modules/check/check.service.ts';
import { registerUser, sendCode } from '../accounts/accounts-helper.ts';
import { importSmallLibrary, SMALL_LIBRARY } from '../small-library.ts';
import {
  buildCheckApp,
  type CheckTestApp,
  call,
  getReport,
  newUser,
  runCheckJobs,
  upload,
} from './check-helper.ts';
import { buildDocx, buildThesis } from './fixtures.ts';

let t: CheckTestApp;

beforeAll(async () => {
  t = await buildCheckApp({ env: { RECHECK_PER_ORDER_PER_DAY: '4', RECHECK_PER_ACCOUNT_PER_DAY: '6' } });
  await importSmallLibrary(t);
}, 300_000);
afterAll(() => t.close());

const planted = [SMALL_LIBRARY[1]!.text, SMALL_LIBRARY[2]!.text];
/** Own prose of the paper's vocabulary, in no library document. */
const ownProse = buildThesis({ seed: 4242, chars: 1200 }).blocks.filter((b) => !b.heading)[2]!.text;

interface Recheck {
  paragraph: { index: number; text: string; rate: number; aigcScore: number | null; marks: unknown[] };
  figures: LiveFigures;
  edited: number[];
  limits: { orderLeft: number; accountLeft: number };
  serverMs: number;
}

/** A paid check of a .docx thesis with two copied paragraphs, done; its report and the copied paragraphs' indexes. */
async function checkedThesis(token: string, seed = 811) {
  const thesis = buildThesis({ seed, chars: 3000, planted });
  const up = await upload(t, token, { bytes: buildDocx(thesis.blocks), name: '论文.docx' });
  expect(up.code).toBe(0);
  await t.db.transaction().execute((tx) => queuePaidCheck(tx, up.data.orderId, null, new Date()));
  await runCheckJobs(t);
  const report = (await getReport(t, token, up.data.orderId)).data as ReportModel;
  const lines = report.text.split('\n');
  const copied = planted.map((p) => lines.findIndex((l) => l.includes(p)));
  expect(copied.every((i) => i > 0)).toBe(true);
  return { orderId: up.data.orderId, report, lines, copied, thesis };
}

function recheck(token: string, orderId: string, index: number, text: string) {
  return call<Recheck>(t, '/freeCheck/revise/recheck', { orderId, index, text }, { token });
}

const pct = (r: number) => (Math.round(r * 1000) / 10).toFixed(1);

// Each test uploads and checks a paper (two in one): more than the default on a loaded machine.
describe('revise in the report', { timeout: 240_000 }, () => {
  it('re-checks a rewritten paragraph at once: its marks go, its rate and the document figures fall', async () => {
    const { token } = await newUser(t);
    const { orderId, report, copied } = await checkedThesis(token);
    const res = await recheck(token, orderId, copied[0]!, ownProse);
    expect(res.code).toBe(0);
    expect(res.data.paragraph).toMatchObject({ index: copied[0], text: ownProse, rate: 0, marks: [] });
    expect(res.data.paragraph.aigcScore).not.toBeNull();
    expect(res.data.edited).toEqual([copied[0]]);
    expect(res.data.figures.ratio).toBeLessThan(report.figures.ratio);
    expect(res.data.figures.copiedChars).toBeLessThan(report.figures.copiedChars);
    expect(res.data.figures.sections.length).toBe(report.sections.length);
    expect(res.data.limits.orderLeft).toBe(3);

    // The other copied paragraph, unchanged, still carries its marks when it is opened (re-checked as is).
    const other = await recheck(token, orderId, copied[1]!, report.text.split('\n')[copied[1]!]!);
    expect(other.data.paragraph.rate).toBeGreaterThan(0.5);
    expect(other.data.paragraph.marks.length).toBeGreaterThan(0);
    expect(other.data.edited).toEqual([copied[0]]);
  });

  it('gives the figures of a full check of the same text, and the signed figures when the edit is undone', async () => {
    const { token } = await newUser(t);
    const { orderId, report, lines, copied } = await checkedThesis(token, 812);
    const live = (await recheck(token, orderId, copied[0]!, ownProse)).data.figures;

    // The same version checked in full: upload the revised text, pay, run the check job.
    const revised = lines.map((l, i) => (i === copied[0] ? ownProse : l));
    const blocks = buildThesis({ seed: 812, chars: 3000, planted }).blocks.map((b, i) => ({
      ...b,
      text: revised[i]!,
    }));
    const up = await upload(t, token, { bytes: buildDocx(blocks), name: '修改稿.docx' });
    await t.db.transaction().execute((tx) => queuePaidCheck(tx, up.data.orderId, null, new Date()));
    await runCheckJobs(t);
    const full = (await getReport(t, token, up.data.orderId)).data as ReportModel;
    expect(full.text).toBe(revised.join('\n'));
    expect(live.ratio).toBe(full.figures.ratio);
    expect(live.ratioExcludingQuotes).toBe(full.figures.ratioExcludingQuotes);
    expect(live.maxSingleSourceRatio).toBe(full.figures.maxSingleSourceRatio);
    expect(live.sections.map((s) => [s.title, pct(s.ratio)])).toEqual(
      full.sections.map((s) => [s.title, pct(s.ratio)]),
    );

    const undone = await recheck(token, orderId, copied[0]!, lines[copied[0]!]!);
    expect(undone.data.edited).toEqual([]);
    expect(undone.data.figures.ratio).toBe(report.figures.ratio);
    expect(undone.data.figures.maxSingleSourceRatio).toBe(report.figures.maxSingleSourceRatio);
  });

  it('keeps the working copy and numbered versions, and downloads the revised .docx with only the edit changed', async () => {
    const { token } = await newUser(t);
    const { orderId, lines, copied } = await checkedThesis(token, 813);
    expect((await call(t, '/freeCheck/revise/saveVersion', { orderId }, { token })).code).toBe(
      ErrorCode.VALIDATION,
    );
    await recheck(token, orderId, copied[0]!, ownProse);
    const saved = await call<{ versionNo: number; edits: { index: number; text: string }[] }>(
      t,
      '/freeCheck/revise/saveVersion',
      { orderId },
      { token },
    );
    expect(saved.data).toMatchObject({ versionNo: 1, edits: [{ index: copied[0], text: ownProse }] });
    const state = await call<{
      draft: { edits: unknown[] } | null;
      versions: { versionNo: number }[];
      docxKept: boolean;
    }>(t, '/freeCheck/revise/state', { orderId }, { token });
    expect(state.data.draft?.edits).toHaveLength(1);
    expect(state.data.versions.map((v) => v.versionNo)).toEqual([1]);
    expect(state.data.docxKept).toBe(true);

    const file = await t.app.inject({
      method: 'POST',
      url: '/kyfw/web/v1/freeCheck/revise/download',
      headers: { token, terminal: 'PC' },
      payload: { orderId, versionNo: 1 },
    });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-disposition']).toContain('docx');
    const xml = new TextDecoder().decode(unzipSync(new Uint8Array(file.rawPayload))['word/document.xml']!);
    expect(xml).toContain(ownProse);
    expect(xml).not.toContain(planted[0]);
    expect(xml).toContain(planted[1]);
    // The headings keep their style.
    expect(xml).toContain(`<w:pStyle w:val="Heading1"/></w:pPr><w:r><w:t xml:space="preserve">${lines[0]}`);

    // Another user's check: not found, nothing changed.
    const other = await newUser(t);
    const foreign = await recheck(other.token, orderId, copied[0]!, '别人的修改');
    expect(foreign.code).toBe(ErrorCode.RESOURCE_NOT_FOUND);

    // Deleting the check deletes its revisions.
    expect((await call(t, '/freeCheck/deleteOrder', { orderId }, { token })).code).toBe(0);
    const rows = await t.db
      .selectFrom('check_revisions')
      .select('id')
      .where('check_id', '=', orderId)
      .execute();
    expect(rows).toEqual([]);
  });

  it('refuses bad input and changes nothing', async () => {
    const { token } = await newUser(t);
    const { orderId, lines, copied } = await checkedThesis(token, 814);
    const tooLong = await recheck(token, orderId, copied[0]!, '字'.repeat(5001));
    expect(tooLong.code).toBe(ErrorCode.VALIDATION);
    expect(tooLong.message).toBe('单个段落不能超过 5000 个字符');
    const noSuch = await recheck(token, orderId, lines.length + 3, ownProse);
    expect(noSuch.code).toBe(ErrorCode.VALIDATION);
    const state = await call<{ draft: unknown; limits: { orderLeft: number } }>(
      t,
      '/freeCheck/revise/state',
      { orderId },
      { token },
    );
    expect(state.data.draft).toBeNull();
    expect(state.data.limits.orderLeft).toBe(4);
  });

  it('limits live re-checks per check and per account and day, with a Chinese refusal', async () => {
    const { token } = await newUser(t);
    const a = await checkedThesis(token, 815);
    for (let i = 0; i < 4; i++)
      expect((await recheck(token, a.orderId, a.copied[0]!, `${ownProse}${i}`)).code).toBe(0);
    const fifth = await recheck(token, a.orderId, a.copied[0]!, ownProse);
    expect(fifth.code).toBe(ErrorCode.CHECK_RECHECK_LIMIT);
    expect(fifth.message).toBe('本篇论文今日的实时复检次数（4 次）已用完，请于明天 00:00 后再试');
    const b = await checkedThesis(token, 816);
    for (let i = 0; i < 2; i++)
      expect((await recheck(token, b.orderId, b.copied[0]!, `${ownProse}${i}`)).code).toBe(0);
    const account = await recheck(token, b.orderId, b.copied[0]!, ownProse);
    expect(account.code).toBe(ErrorCode.CHECK_RECHECK_LIMIT);
    expect(account.message).toBe('账号今日的实时复检次数（6 次）已用完，请于明天 00:00 后再试');
    // The refused edit changed nothing: the working copy has the last accepted text.
    const state = await call<{ draft: { edits: { text: string }[] } }>(
      t,
      '/freeCheck/revise/state',
      { orderId: b.orderId },
      { token },
    );
    expect(state.data.draft.edits[0]?.text).toBe(`${ownProse}1`);
    t.clock.advance(24 * 3600_000);
    expect((await recheck(token, b.orderId, b.copied[0]!, ownProse)).code).toBe(0);
  });

  it('exports the revisions with the account and erases them with it', async () => {
    const { phone, token } = await registerUser(t);
    const { orderId, copied } = await checkedThesis(token, 817);
    await recheck(token, orderId, copied[0]!, ownProse);
    const exported = await t.app.inject({
      method: 'POST',
      url: '/kyfw/web/v1/websiteUser/exportData',
      headers: { token },
    });
    expect(exported.json().checkRevisions).toEqual([
      expect.objectContaining({ versionNo: null, edits: [{ index: copied[0], text: ownProse }] }),
    ]);
    t.clock.advance(2 * 60_000);
    const code = await sendCode(t, phone, '4', { token });
    expect((await call(t, '/websiteUser/deleteAccount', { checkCode: code }, { token })).code).toBe(0);
    const rows = await t.db
      .selectFrom('check_revisions')
      .select('id')
      .where('check_id', '=', orderId)
      .execute();
    expect(rows).toEqual([]);
  });
});
