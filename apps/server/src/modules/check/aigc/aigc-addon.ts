import type { AigcReportModel, AigcSection } from '@kyfw/contracts';
import type { Database, Kysely } from '@kyfw/db';
import { type JobContext, NonRetryableJobError } from '../../../jobs/job-definition.ts';
import { FileNotFoundError } from '../../../lib/storage/index.ts';
import { formatFenAsYuan } from '../../../providers/payment/index.ts';
import { restoreEntitlement } from '../../accounts/index.ts';
import type { GoodsRecord } from '../../orders/index.ts';
import type { CheckRecord } from '../check.repo.ts';
import type { CheckRuntime } from '../check.runtime.ts';
import { CheckStoppedError, type Payload, progress } from '../run-context.ts';
import type { ReportSummary } from '../signing.ts';
import type { StoredText } from '../upload.service.ts';
import { AIGC_TEXTS } from './aigc.texts.ts';
import {
  type AigcAddonRecord,
  findAddon,
  markAddonDone,
  markAddonFailed,
  setAddonRefunded,
} from './aigc-addon.repo.ts';
import { checkKindOf } from './aigc-report.ts';

/**
 * AIGC detection ordered together with a similarity check (issue 14, decision 0020): the goods
 * sold as the add-on, the check job's detection step (durable: a resumed run reads the stored
 * section instead of detecting again), the add-on failing for good (its part refunded, or its free
 * use given back, the similarity report still delivered), and what the status, list and signed
 * summary show of it.
 */

/** The AIGC goods sold as the add-on: the first active aigc_detection* goods of the catalogue. */
export async function addonGoodsOf(rt: Pick<CheckRuntime, 'orders'>): Promise<GoodsRecord | undefined> {
  return (await rt.orders.listGoods('check')).find((g) => checkKindOf(g) === 'aigc');
}

function sectionOf(detected: AigcReportModel, goodsName: string): AigcSection {
  return {
    status: 'done',
    goodsName,
    modelVersion: detected.modelVersion,
    figures: detected.figures,
    verdict: detected.verdict,
    reasons: detected.reasons,
    paragraphs: detected.paragraphs,
    // The disclaimer only: the extraction's warnings are the report's own notes already.
    notes: detected.notes.slice(0, 1),
  };
}

function failedSectionOf(addon: AigcAddonRecord): AigcSection {
  return {
    status: 'failed',
    goodsName: addon.goodsName,
    message: addon.failureReason ?? AIGC_TEXTS.addonFailed,
  };
}

/**
 * The check job's AIGC step, before the comparison: the stored section when the add-on was
 * detected (or failed) in an earlier run, else the detector (worker thread), its section stored
 * beside the report files and the add-on marked done. A failure is retried with the job; on its
 * last attempt the add-on fails for good (failAddon) and the report gets a section saying so.
 * Undefined for a check without the add-on.
 */
export async function aigcSectionOf(
  rt: CheckRuntime,
  ctx: JobContext<Payload>,
  check: CheckRecord,
  stored: StoredText,
): Promise<AigcSection | undefined> {
  const addon = await findAddon(rt.db, check.id);
  if (!addon) return undefined;
  if (addon.status === 'failed') return failedSectionOf(addon);
  if (addon.status === 'done' && addon.modelKey) {
    try {
      return JSON.parse((await rt.storage.get(addon.modelKey)).toString('utf8')) as AigcSection;
    } catch (error) {
      // The stored section is gone: detect again (the detector is deterministic).
      if (!(error instanceof FileNotFoundError)) throw error;
    }
  }
  await progress(rt, ctx, check, 'detecting', 7);
  try {
    const detected = await rt.pool.detectAigc({
      header: {
        orderId: check.id,
        orderNo: check.checkNo,
        reportNo: '',
        verificationCode: '',
        verifyUrl: '',
        title: check.title,
        author: check.author,
        goodsName: addon.goodsName,
        fileName: check.fileName,
        checkedAt: rt.now().toISOString(),
      },
      text: stored.text,
      totalChars: check.chars,
      warnings: [],
    });
    const section = sectionOf(detected, addon.goodsName);
    const folder = check.fileKey
      ? check.fileKey.slice(0, check.fileKey.lastIndexOf('/'))
      : `check/${check.id}`;
    const modelKey = `${folder}/aigc-part.json`;
    await rt.storage.put(modelKey, JSON.stringify(section));
    const f = detected.figures;
    await markAddonDone(rt.db, check.id, {
      modelKey,
      score: f.score,
      reliable: f.reliable,
      flaggedChars: f.flaggedChars,
      now: rt.now(),
    });
    return section;
  } catch (error) {
    if (error instanceof CheckStoppedError || ctx.signal.aborted) throw error;
    const lastAttempt = error instanceof NonRetryableJobError || ctx.job.attempts >= ctx.job.maxAttempts;
    if (!lastAttempt) throw error;
    ctx.logger.error({ err: error }, 'AIGC add-on failed for good; the similarity check goes on');
    return failedSectionOf(await failAddon(rt, check, addon));
  }
}

/**
 * The add-on failed for good while the similarity check goes on: its part of the order is refunded
 * (only that part: the similarity report is still delivered, decision 0020), or, paid by the free
 * AIGC detection, that free use is given back. The add-on row says which.
 */
export async function failAddon(
  rt: CheckRuntime,
  check: CheckRecord,
  addon: AigcAddonRecord,
): Promise<AigcAddonRecord> {
  const now = rt.now();
  if (!addon.free && check.orderId && addon.amountFen > 0) {
    const amount = formatFenAsYuan(addon.amountFen);
    const refund = await rt.orders.refundPart(check.orderId, {
      amountFen: addon.amountFen,
      reason: AIGC_TEXTS.addonRefundReason,
      update: (tx) => markAddonFailed(tx, check.id, AIGC_TEXTS.addonFailedRefunded(amount), now),
    });
    if (refund.amountFen > 0) await setAddonRefunded(rt.db, check.id, refund.amountFen, now);
  } else {
    await rt.db.transaction().execute(async (tx) => {
      const changed = await markAddonFailed(tx, check.id, AIGC_TEXTS.addonFailedFree, now);
      if (changed && addon.free) await restoreAddonFreeUse(tx, check);
    });
  }
  return (await findAddon(rt.db, check.id)) ?? addon;
}

/** The free AIGC detection that paid a free check's add-on comes back (the check failed, or the add-on). */
export function restoreAddonFreeUse(tx: Kysely<Database>, check: Pick<CheckRecord, 'id' | 'userId'>) {
  return restoreEntitlement(check.userId, 'free_aigc_detection', { tx, usedFor: check.id });
}

/** What the signed summary (verification) says of the add-on. */
export function addonSummaryOf(section: AigcSection): NonNullable<ReportSummary['aigcAddon']> {
  return section.status === 'done'
    ? {
        goodsName: section.goodsName,
        failed: false,
        score: section.figures.score,
        reliable: section.figures.reliable,
        flaggedChars: section.figures.flaggedChars,
      }
    : { goodsName: section.goodsName, failed: true, score: null, reliable: null };
}

/** The add-on as the status, the list and the order page show it (null without it). */
export function addonView(addon: AigcAddonRecord | undefined) {
  if (!addon) return null;
  return {
    goodsName: addon.goodsName,
    status: addon.status,
    statusText: AIGC_TEXTS.addonStatus[addon.status],
    amount: formatFenAsYuan(addon.amountFen),
    free: addon.free,
    score: addon.score,
    reliable: addon.reliable,
    flaggedChars: addon.flaggedChars,
    failureReason: addon.failureReason,
    refundedAmount: formatFenAsYuan(addon.refundedFen),
  };
}
