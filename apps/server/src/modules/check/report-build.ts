import type { AigcSection } from '@kyfw/contracts';
import type { JobContext } from '../../jobs/job-definition.ts';
import { addonSummaryOf } from './aigc/aigc-addon.ts';
import { type CheckRecord, lockCheck, setStage } from './check.repo.ts';
import type { CheckLogger, CheckRuntime } from './check.runtime.ts';
import { CHECK_STAGE_TEXTS } from './check.texts.ts';
import { type CheckReportRecord, findReport, insertReport, type NewReport } from './check-reports.repo.ts';
import type { CompareOptions, CompareResult } from './cpu-pool.ts';
import { collectionsOf } from './library/collections.ts';
import { createProgressWriter } from './progress-writer.ts';
import { buildReportModel } from './report/report-model.ts';
import { CheckStoppedError, type Payload, progress } from './run-context.ts';
import { maskAuthor, newReportNo, type ReportSummary, signSummary, verificationCodeOf } from './signing.ts';
import type { StoredText } from './upload.service.ts';

/** The check job's report stage: the similarity report or the AIGC report, built in the worker thread, stored and signed. */

/** The comparing stage's progress is stored at most this often (ms): a few writes a second. */
const COMPARE_PROGRESS_WRITE_MS = 250;

/** The stored percentage for the engine's share of the comparison done (0..1): 10–80. */
function comparingPercent(fraction: number): number {
  return Math.round(10 + 70 * Math.min(1, Math.max(0, fraction)));
}

/** What every report's header needs: the order (paid checks), the goods' name, time, storage folder. */
async function reportContext(rt: CheckRuntime, check: CheckRecord, defaultGoodsName: string) {
  const order = check.orderId ? await rt.orders.getOrder(check.orderId) : undefined;
  const goods = await rt.orders.getGoods(check.goodsId);
  return {
    order,
    goodsName: order?.goodsName ?? goods?.name ?? defaultGoodsName,
    checkedAt: rt.now(),
    folder: check.fileKey ? check.fileKey.slice(0, check.fileKey.lastIndexOf('/')) : `check/${check.id}`,
  };
}

/**
 * Writes the report row, only while the check is still this run's (under its lock: a deletion
 * stopping it waits, or is seen). Undefined when the report number was taken (draw another).
 */
async function storeReportRow(
  rt: CheckRuntime,
  check: CheckRecord,
  row: NewReport,
): Promise<CheckReportRecord | undefined> {
  const inserted = await rt.db.transaction().execute(async (tx) => {
    if ((await lockCheck(tx, check.id))?.status !== 'running') throw new CheckStoppedError();
    return insertReport(tx, row);
  });
  return inserted ?? (await findReport(rt.db, check.id));
}

/**
 * The comparison of a check: the text against the library, only the collections the goods names
 * (硕博 with the thesis collection, …): a candidate from another collection is left out and the
 * comparison runs again without it, until none is left. Shared by the check job and the live
 * re-check of a revision (revise/), so a revision's figures are the figures its check would give.
 */
export async function compareWithinGoods(
  rt: CheckRuntime,
  goodsId: string,
  stored: Pick<StoredText, 'text' | 'headings'>,
  options: { onProgress?: CompareOptions['onProgress']; logger?: CheckLogger } = {},
): Promise<CompareResult> {
  const collections = collectionsOf(await rt.orders.getGoods(goodsId));
  const excluded: number[] = [];
  for (;;) {
    const compared = await rt.pool.compare(rt.indexLocation, stored.text, stored.headings, {
      onProgress: options.onProgress,
      excludeDocNos: excluded,
    });
    if (!collections) return compared;
    const outside = await rt.library.outsideCollections(
      compared.candidates.map((c) => c.id),
      collections,
    );
    if (outside.size === 0) return compared;
    for (const c of compared.candidates) if (outside.has(c.id)) excluded.push(c.docNo);
    options.logger?.info({ excluded: outside.size }, 'candidates outside the goods collections left out');
  }
}

/** The texts and catalogue entries of a comparison's sources, as buildReportModel takes them. */
export async function sourcesOf(rt: CheckRuntime, compared: CompareResult) {
  const sources = new Map(compared.sources.map((d) => [d.id, d]));
  const catalog = await rt.library.describeSources(compared.report.sources.map((s) => s.sourceId));
  return { sources, catalog };
}

export async function buildAndStoreReport(
  rt: CheckRuntime,
  ctx: JobContext<Payload>,
  check: CheckRecord,
  stored: StoredText,
  /** The AIGC detection ordered with the check (aigc/aigc-addon.ts): its own section of the report. */
  aigc?: AigcSection,
): Promise<CheckReportRecord> {
  await progress(rt, ctx, check, 'comparing', 10);
  const started = Date.now();
  // The engine reports its progress from the worker thread; stored throttled, never backwards.
  const comparing = createProgressWriter({
    start: 10,
    intervalMs: COMPARE_PROGRESS_WRITE_MS,
    async write(percent) {
      await setStage(rt.db, check.id, 'comparing', percent, rt.now());
      await ctx.reportProgress(percent, CHECK_STAGE_TEXTS.comparing);
    },
    onError: (error) => ctx.logger.warn({ err: error }, 'comparing progress not stored'),
  });
  let compared: CompareResult;
  try {
    compared = await compareWithinGoods(rt, check.goodsId, stored, {
      onProgress: (p) => comparing.update(comparingPercent(p.fraction)),
      logger: ctx.logger,
    });
    // The engine's last report (the whole comparison, 80) is stored before the next stage.
    await comparing.flush();
  } finally {
    await comparing.close();
  }
  ctx.logger.info({ ms: Date.now() - started, chars: stored.text.length }, 'check compared');
  await progress(rt, ctx, check, 'reporting', 85);

  const { report } = compared;
  const { sources, catalog } = await sourcesOf(rt, compared);
  const { order, goodsName, checkedAt, folder } = await reportContext(rt, check, '论文查重');

  for (let attempt = 0; attempt < 3; attempt++) {
    const reportNo = newReportNo(checkedAt);
    const summary: ReportSummary = {
      reportNo,
      title: check.title,
      author: maskAuthor(check.author),
      goodsName,
      totalChars: report.chars,
      copiedChars: report.copiedChars,
      ratio: report.ratio,
      ratioExcludingQuotes: report.ratioExcludingQuotes,
      maxSingleSourceRatio: report.maxSingleSourceRatio,
      checkedAt: checkedAt.toISOString(),
      ...(aigc ? { aigcAddon: addonSummaryOf(aigc) } : {}),
    };
    const signature = signSummary(rt.signingSecret, summary);
    const verificationCode = verificationCodeOf(rt.signingSecret, signature);
    const verifyUrl = `${rt.publicBaseUrl}/check/verify?reportNo=${reportNo}&code=${verificationCode}`;
    const built = buildReportModel({
      orderId: check.id,
      orderNo: order?.orderNo ?? check.checkNo,
      reportNo,
      verificationCode,
      verifyUrl,
      title: check.title,
      author: check.author,
      goodsName,
      fileName: check.fileName,
      checkedAt,
      text: stored.text,
      report,
      sources,
      catalog,
      warnings: stored.warnings,
    });
    const model = aigc ? { ...built, aigc } : built;
    const files = await rt.pool.render(model);
    await progress(rt, ctx, check, 'reporting', 95);
    const keys = {
      model: `${folder}/report.json`,
      pdf: `${folder}/report.pdf`,
      markedPdf: `${folder}/marked.pdf`,
      html: `${folder}/report.html`,
      zip: `${folder}/report.zip`,
    };
    await rt.storage.put(keys.model, JSON.stringify(model));
    await rt.storage.put(keys.pdf, files.pdf);
    await rt.storage.put(keys.markedPdf, files.markedPdf);
    await rt.storage.put(keys.html, files.html);
    await rt.storage.put(keys.zip, files.zip);
    const storedRow = await storeReportRow(rt, check, {
      checkId: check.id,
      reportNo,
      verificationCode,
      summary,
      signature,
      ratio: report.ratio,
      totalChars: report.chars,
      copiedChars: report.copiedChars,
      keys,
      checkedAt,
    });
    if (storedRow) return storedRow;
  }
  throw new Error('could not draw a free report number');
}

/**
 * An AIGC check's report: the detector and the PDF run in the worker thread (packages/aigc through
 * check/aigc); the row in check_reports keeps the index / 100 as `ratio` and the flagged
 * paragraphs' characters as `copied_chars`; the signed summary says it is an AIGC report.
 */
export async function buildAndStoreAigcReport(
  rt: CheckRuntime,
  ctx: JobContext<Payload>,
  check: CheckRecord,
  stored: StoredText,
): Promise<CheckReportRecord> {
  await progress(rt, ctx, check, 'detecting', 20);
  const { order, goodsName, checkedAt, folder } = await reportContext(rt, check, 'AIGC检测');
  for (let attempt = 0; attempt < 3; attempt++) {
    const reportNo = newReportNo(checkedAt);
    // The figures are known only after detection, and the signature covers them: detect, sign,
    // then render with the verification code in the header.
    const detected = await rt.pool.detectAigc({
      header: {
        orderId: check.id,
        orderNo: order?.orderNo ?? check.checkNo,
        reportNo,
        verificationCode: '',
        verifyUrl: '',
        title: check.title,
        author: check.author,
        goodsName,
        fileName: check.fileName,
        checkedAt: checkedAt.toISOString(),
      },
      text: stored.text,
      totalChars: check.chars,
      warnings: stored.warnings,
    });
    const f = detected.figures;
    const summary: ReportSummary = {
      reportNo,
      title: check.title,
      author: maskAuthor(check.author),
      goodsName,
      totalChars: check.chars,
      copiedChars: f.flaggedChars,
      ratio: f.score / 100,
      ratioExcludingQuotes: f.score / 100,
      maxSingleSourceRatio: 0,
      checkedAt: checkedAt.toISOString(),
      kind: 'aigc',
      aigcScore: f.score,
      aigcReliable: f.reliable,
    };
    const signature = signSummary(rt.signingSecret, summary);
    const verificationCode = verificationCodeOf(rt.signingSecret, signature);
    const model = {
      ...detected,
      verificationCode,
      verifyUrl: `${rt.publicBaseUrl}/check/verify?reportNo=${reportNo}&code=${verificationCode}`,
    };
    await progress(rt, ctx, check, 'reporting', 80);
    const pdf = await rt.pool.renderAigc(model);
    await progress(rt, ctx, check, 'reporting', 90);
    const keys = { model: `${folder}/aigc-report.json`, pdf: `${folder}/aigc-report.pdf` };
    await rt.storage.put(keys.model, JSON.stringify(model));
    await rt.storage.put(keys.pdf, pdf);
    const storedRow = await storeReportRow(rt, check, {
      checkId: check.id,
      reportNo,
      verificationCode,
      summary,
      signature,
      ratio: f.score / 100,
      totalChars: check.chars,
      copiedChars: f.flaggedChars,
      keys: { model: keys.model, pdf: keys.pdf, markedPdf: null, html: null, zip: null },
      checkedAt,
    });
    if (storedRow) return storedRow;
  }
  throw new Error('could not draw a free report number');
}
