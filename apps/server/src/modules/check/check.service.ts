import { createHash, randomInt, randomUUID } from 'node:crypto';
import { ErrorCode, type ErrorCodeValue } from '@kyfw/contracts';
import type { Database, Kysely } from '@kyfw/db';
import { countChars } from '@kyfw/simcheck';
import {
  ExtractError,
  type ExtractErrorKind,
  type ExtractedDocument,
  extractDocument,
} from '@kyfw/simcheck/extract';
import { cancelJob, enqueue, getJob } from '../../jobs/index.ts';
import { AppError } from '../../lib/app-error.ts';
import { FileNotFoundError } from '../../lib/storage/index.ts';
import { formatFenAsYuan } from '../../providers/payment/index.ts';
import { lockActiveAccount } from '../accounts/accounts.service.ts';
import {
  consumeEntitlement,
  listEntitlements,
  restoreEntitlement,
} from '../accounts/entitlements.service.ts';
import type { GoodsRecord } from '../orders/orders.api.ts';
import { aigcReliableOf, aigcReportFileName, checkKindOf, entitlementOfKind } from './aigc/aigc-report.ts';
import {
  type CheckRecord,
  type CheckReportRecord,
  findCheck,
  findReport,
  findReportByNo,
  findUserCheck,
  hideCheck,
  insertCheck,
  listUserChecks,
  lockCheck,
  lockUndeliveredChecksOf,
  markFailed,
  markQueued,
  markStopped,
  setCheckFiles,
} from './check.repo.ts';
import type { CheckRuntime } from './check.runtime.ts';
import { CHECK_STAGE_TEXTS, CHECK_STATUS_TEXTS, TEXTS } from './check.texts.ts';
import { collectionsOf, scopeOf } from './library/collections.ts';
import { reportFileNames } from './report/render.ts';
import { isGenuine, type ReportSummary } from './signing.ts';

/** The check job's name; the definition lives in check.jobs.ts. */
export const CHECK_JOB = 'check.run';
/** The job removing a deleted account's files (check.jobs.ts). */
export const CHECK_PURGE_JOB = 'check.purge-files';

/** The extracted text kept beside the upload, read by the check job. */
export interface StoredText {
  text: string;
  headings: ExtractedDocument['headings'];
  warnings: string[];
  format: ExtractedDocument['format'];
}

const EXTRACT_ERRORS: Record<ExtractErrorKind, ErrorCodeValue> = {
  unsupported: ErrorCode.CHECK_FILE_UNSUPPORTED,
  'too-large': ErrorCode.CHECK_FILE_TOO_LARGE,
  encrypted: ErrorCode.CHECK_FILE_ENCRYPTED,
  scanned: ErrorCode.CHECK_FILE_SCANNED,
  broken: ErrorCode.CHECK_FILE_BROKEN,
  timeout: ErrorCode.CHECK_FILE_BROKEN,
  empty: ErrorCode.CHECK_FILE_EMPTY,
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** 'JC' + yyyyMMddHHmmss (China time) + 6 random digits. */
function newCheckNo(now: Date): string {
  const stamp = new Date(now.getTime() + 8 * 3600_000).toISOString().replace(/\D/g, '').slice(0, 14);
  return `JC${stamp}${String(randomInt(1_000_000)).padStart(6, '0')}`;
}

interface FreeRule {
  entitlement?: string;
  maxQuantity?: number;
  text?: string;
}

/** The goods' free rule when it uses the entitlement of its kind (free_check, free_aigc_detection). */
function freeRuleOf(goods: GoodsRecord): FreeRule | null {
  const rule = goods.freeRule as FreeRule | null;
  return rule && rule.entitlement === entitlementOfKind(checkKindOf(goods)) ? rule : null;
}

/** The free check's character cap for these goods: the catalogue's rule, never above CHECK_FREE_MAX_CHARS. */
export function freeCapOf(rt: CheckRuntime, goods: GoodsRecord): number | null {
  const rule = freeRuleOf(goods);
  if (!rule) return null;
  return Math.min(rule.maxQuantity ?? rt.config.freeMaxChars, rt.config.freeMaxChars);
}

function freeUsedText(kind: CheckRecord['kind']): string {
  return kind === 'aigc' ? TEXTS.aigcFreeUsed : TEXTS.freeUsed;
}

/** A free check that failed: its free use came back (the free check, or the free AIGC detection). */
export function failedFreeText(kind: CheckRecord['kind']): string {
  return kind === 'aigc' ? TEXTS.failedFreeAigc : TEXTS.failedFree;
}

/** The unused free uses the account holds, by entitlement kind. */
async function heldEntitlements(db: Kysely<Database>, userId: string): Promise<Set<string>> {
  return new Set(
    [...(await freeUseStates(db, userId)).entries()].filter(([, v]) => v === 'available').map(([k]) => k),
  );
}

/**
 * The caller's free use of each entitlement kind: `available`, `used` (this account used it);
 * a kind the account does not hold is `none` (its phone or WeChat earned it on an earlier
 * account), and without a login `login` (every account gets one at registration).
 */
type FreeUseState = 'login' | 'available' | 'used' | 'none';

async function freeUseStates(db: Kysely<Database>, userId: string): Promise<Map<string, FreeUseState>> {
  const list = await listEntitlements(userId, { tx: db });
  return new Map(list.map((e) => [e.kind, e.usedAt === null ? 'available' : 'used']));
}

async function hasFreeCheck(db: Kysely<Database>, userId: string, goods: GoodsRecord): Promise<boolean> {
  return (await heldEntitlements(db, userId)).has(entitlementOfKind(checkKindOf(goods)));
}

async function getCheckGoods(rt: CheckRuntime, goodsId: string): Promise<GoodsRecord> {
  const goods = await rt.orders.getGoods(goodsId);
  if (goods?.serviceType !== 'check') throw new AppError(ErrorCode.GOODS_NOT_FOUND);
  return goods;
}

// ---------------------------------------------------------------------------------------------
// Goods

export async function listCheckGoods(rt: CheckRuntime, userId: string | null) {
  const orders = rt.orders;
  const goods = await orders.listGoods('check');
  const states = userId ? await freeUseStates(rt.db, userId) : null;
  const composition = await rt.library.composition();
  return goods.map((g) => {
    const cap = freeCapOf(rt, g);
    const status: FreeUseState = states ? (states.get(entitlementOfKind(checkKindOf(g))) ?? 'none') : 'login';
    return {
      ...orders.toGoodsView(g),
      /** similarity: 查重; aigc: AIGC检测. */
      kind: checkKindOf(g),
      /** Per 1,000 characters, in yuan: what the page shows as 元/千字. */
      pricePerThousand: formatFenAsYuan(Math.round((g.unitPriceFen * 1000) / g.unitSize)),
      freeMaxChars: cap,
      /** The logged-in user can use a free check on these goods (papers up to freeMaxChars). */
      freeAvailable: cap !== null && status === 'available',
      /** The caller's free check (null: these goods have none), so the page says why it has none. */
      freeStatus: cap === null ? null : status,
      /**
       * What it compares against, from the library as it is: each collection it names with its
       * real number of documents (0: 暂无收录); null for AIGC detection (no library).
       */
      library: checkKindOf(g) === 'similarity' ? scopeOf(collectionsOf(g), composition) : null,
      uploadMaxBytes: rt.config.uploadMaxBytes,
    };
  });
}

// ---------------------------------------------------------------------------------------------
// Upload

export interface UploadInput {
  userId: string;
  fileName: string;
  bytes: Uint8Array;
  title: string;
  author: string;
  goodsId: string;
  addToLibrary: boolean;
}

/** Parses the upload (in the extraction worker, with limits); every failure is an AppError in Chinese. */
export async function extractUpload(
  rt: CheckRuntime,
  bytes: Uint8Array,
  fileName: string,
): Promise<ExtractedDocument> {
  if (bytes.length === 0) throw new AppError(ErrorCode.CHECK_FILE_MISSING);
  if (bytes.length > rt.config.uploadMaxBytes) {
    throw new AppError(
      ErrorCode.CHECK_FILE_TOO_LARGE,
      TEXTS.fileTooLarge(rt.config.uploadMaxBytes / 1024 / 1024),
    );
  }
  try {
    return await extractDocument(bytes, {
      fileName,
      limits: { maxBytes: rt.config.uploadMaxBytes, timeoutMs: rt.config.parseTimeoutMs },
    });
  } catch (error) {
    if (error instanceof ExtractError) {
      throw new AppError(EXTRACT_ERRORS[error.kind], error.message, { cause: error });
    }
    throw error;
  }
}

/**
 * Uploads a paper: parse and count (before anything is stored), price it from the catalogue, store
 * the file and its text, and create the order (pending payment) — or, when the account holds the
 * free check and the paper is within the free cap, a free check waiting for /freeCheck/payFee.
 */
export async function uploadPaper(rt: CheckRuntime, input: UploadInput) {
  const orders = rt.orders;
  const goods = await getCheckGoods(rt, input.goodsId);
  const document = await extractUpload(rt, input.bytes, input.fileName);
  const chars = countChars(document.text);
  if (chars === 0) throw new AppError(ErrorCode.CHECK_FILE_EMPTY);
  if (chars > goods.maxQuantity) {
    throw new AppError(ErrorCode.QUANTITY_OUT_OF_RANGE, TEXTS.tooManyChars(chars, goods.maxQuantity));
  }
  const { amountFen } = orders.priceFor(goods, Math.max(chars, goods.minQuantity));

  const cap = freeCapOf(rt, goods);
  let freeNote: string | null = null;
  let free = false;
  if (cap !== null && (await hasFreeCheck(rt.db, input.userId, goods))) {
    if (chars <= cap) free = true;
    else freeNote = TEXTS.freeOverCap(chars, cap);
  }

  // Files first, under a folder of their own; removed again if the rows cannot be written.
  const now = rt.now();
  const folder = `check/${now.getUTCFullYear()}/${String(now.getUTCMonth() + 1).padStart(2, '0')}/${randomUUID()}`;
  const fileKey = `${folder}/original.${document.format}`;
  const textKey = `${folder}/text.json`;
  const stored: StoredText = {
    text: document.text,
    headings: document.headings,
    warnings: document.warnings,
    format: document.format,
  };
  await rt.storage.put(fileKey, input.bytes);
  await rt.storage.put(textKey, JSON.stringify(stored));

  try {
    const result = await rt.db.transaction().execute(async (tx) => {
      // The account may have been deleted while the paper was parsed: then nothing is written (the
      // session is gone: 1003), else a deletion waits for this transaction and deals with it.
      await lockActiveAccount(tx, input.userId);
      const order = free
        ? undefined
        : await orders.createOrder(
            {
              userId: input.userId,
              serviceType: 'check',
              goodsId: goods.id,
              quantity: Math.max(chars, goods.minQuantity),
              meta: { title: input.title.slice(0, 100) },
            },
            { tx },
          );
      for (let attempt = 0; attempt < 5; attempt++) {
        const check = await insertCheck(tx, {
          ...(order ? { id: order.orderId } : {}),
          checkNo: newCheckNo(now),
          userId: input.userId,
          orderId: order?.orderId ?? null,
          goodsId: goods.id,
          title: input.title,
          author: input.author,
          fileName: input.fileName.slice(0, 255) || `paper.${document.format}`,
          fileFormat: document.format,
          fileBytes: input.bytes.length,
          fileSha256: createHash('sha256').update(input.bytes).digest('hex'),
          kind: checkKindOf(goods),
          chars,
          amountFen: free ? 0 : (order?.amountFen ?? amountFen),
          free,
          // An AIGC check compares nothing and adds nothing to the library.
          addToLibrary: input.addToLibrary && checkKindOf(goods) === 'similarity',
          now,
        });
        if (check) {
          await setCheckFiles(tx, check.id, { fileKey, textKey }, now);
          return { check, order };
        }
      }
      throw new Error('could not draw a free check number');
    });
    const { check, order } = result;
    if (order) {
      // The order points back at the check (same id); outside the transaction, best effort.
      await orders.setServiceRef(order.orderId, check.id).catch((error: unknown) => {
        rt.logger.warn({ err: error, orderId: order.orderId }, 'could not set the order service ref');
      });
    }
    return {
      orderId: check.id,
      orderNo: order?.orderNo ?? check.checkNo,
      chars,
      amount: formatFenAsYuan(check.amountFen),
      amountFen: check.amountFen,
      /** What the paper would cost (also for a free check). */
      price: formatFenAsYuan(amountFen),
      free,
      freeNote,
      goodsId: goods.id,
      goodsName: goods.name,
      title: check.title,
      author: check.author,
      fileName: check.fileName,
      format: check.fileFormat,
      addToLibrary: check.addToLibrary,
      warnings: document.warnings,
      status: check.status,
    };
  } catch (error) {
    await rt.storage.deleteFolder(folder).catch(() => undefined);
    throw error;
  }
}

// ---------------------------------------------------------------------------------------------
// Starting the check

async function getOwnCheck(rt: CheckRuntime, userId: string, orderId: string): Promise<CheckRecord> {
  const check = UUID.test(orderId) ? await findUserCheck(rt.db, userId, orderId) : undefined;
  if (!check) throw new AppError(ErrorCode.RESOURCE_NOT_FOUND, '订单不存在或已删除');
  return check;
}

/** Enqueues the check job for a check and marks it queued (inside the caller's transaction). */
export async function queueCheck(
  tx: Kysely<Database>,
  checkId: string,
  dedupeKey: string,
  now: Date,
): Promise<boolean> {
  const { id } = await enqueue(tx, CHECK_JOB, { checkId }, { dedupeKey, maxAttempts: 3 });
  return markQueued(tx, checkId, id, now);
}

/**
 * /freeCheck/payFee: starts a free check by using the account's free_check entitlement, atomically
 * (of two concurrent calls exactly one consumes it) and in the same transaction that queues the job.
 * Calling it again on a started check changes nothing.
 */
export async function startFreeCheck(rt: CheckRuntime, userId: string, orderId: string) {
  const own = await getOwnCheck(rt, userId, orderId);
  const goods = await getCheckGoods(rt, own.goodsId);
  const cap = freeCapOf(rt, goods);
  if (!own.free) {
    // Say why this check is not free: its goods never is, the paper is over the free cap, or it
    // was uploaded as a paid check (the free check was used, or not available then).
    if (cap === null) throw new AppError(ErrorCode.CHECK_FREE_UNAVAILABLE, TEXTS.freeNotForGoods);
    if (own.chars > cap)
      throw new AppError(ErrorCode.CHECK_FREE_UNAVAILABLE, TEXTS.freeOverCap(own.chars, cap));
    throw new AppError(ErrorCode.CHECK_FREE_UNAVAILABLE, TEXTS.paidCheck);
  }
  const now = rt.now();
  await rt.db.transaction().execute(async (tx) => {
    const check = await lockCheck(tx, own.id);
    if (check?.status !== 'pending') return; // already started
    if (cap === null) throw new AppError(ErrorCode.CHECK_FREE_UNAVAILABLE, TEXTS.freeNotForGoods);
    if (check.chars > cap)
      throw new AppError(ErrorCode.CHECK_FREE_UNAVAILABLE, TEXTS.freeOverCap(check.chars, cap));
    const used = await consumeEntitlement(userId, entitlementOfKind(check.kind), {
      tx,
      usedFor: check.id,
      now,
    });
    if (!used) throw new AppError(ErrorCode.CHECK_FREE_UNAVAILABLE, freeUsedText(check.kind));
    await queueCheck(tx, check.id, `check:${check.id}:1`, now);
  });
  return getCheckStatus(rt, userId, orderId);
}

/**
 * The onPaid('check') hook: queue the check of a paid order, in the payment's transaction, under a
 * lock on the check's row (deleteCheck takes the same lock, so of a delete and a payment exactly
 * one wins). `deleted`: the check was deleted (by the user, or with the account) before the
 * payment was accepted, or never existed — there is nothing to check and the payment must be
 * refunded.
 */
export async function queuePaidCheck(
  tx: Kysely<Database>,
  orderId: string,
  serviceRef: string | null,
  now: Date,
): Promise<'queued' | 'deleted' | 'unchanged'> {
  const check =
    (await lockCheck(tx, orderId)) ??
    (serviceRef && UUID.test(serviceRef) ? await lockCheck(tx, serviceRef) : undefined);
  if (!check || (check.hiddenAt && check.status === 'pending')) return 'deleted';
  if (check.status !== 'pending') return 'unchanged';
  return (await queueCheck(tx, check.id, `check:${check.id}:1`, now)) ? 'queued' : 'unchanged';
}

/**
 * /freeCheck/retryCheck: a failed check runs again (a free one uses the free check again). A paid
 * check whose money was given back when it failed cannot: the user uploads it again and pays.
 */
export async function retryCheck(rt: CheckRuntime, userId: string, orderId: string) {
  const own = await getOwnCheck(rt, userId, orderId);
  if (own.status !== 'failed') throw new AppError(ErrorCode.CHECK_NOT_RETRYABLE);
  const now = rt.now();
  await rt.db.transaction().execute(async (tx) => {
    const check = await lockCheck(tx, own.id);
    if (check?.status !== 'failed') return;
    if (!check.free && check.orderId) {
      // The refund is recorded in the transaction that failed the check, so it is seen here.
      const order = await rt.orders.getOrder(check.orderId, { tx });
      if (!paidAndKept(order)) throw new AppError(ErrorCode.CHECK_NOT_RETRYABLE, TEXTS.refundedNoRetry);
    }
    if (check.free) {
      const used = await consumeEntitlement(userId, entitlementOfKind(check.kind), {
        tx,
        usedFor: check.id,
        now,
      });
      if (!used) throw new AppError(ErrorCode.CHECK_FREE_UNAVAILABLE, freeUsedText(check.kind));
    }
    await queueCheck(tx, check.id, `check:${check.id}:retry:${randomUUID()}`, now);
  });
  return getCheckStatus(rt, userId, orderId);
}

/**
 * Fails a check for good with a reason the user sees. Nobody keeps paying for a check that gave no
 * report: a free check's entitlement is given back (the user can try again), and a paid check's
 * money is refunded in full through the payment platform, in the transaction that fails it (the
 * orders module locks the order, then the check is marked failed, then the refund is recorded:
 * the lock order of modules/orders/README.md) and carried out right after (retried by the
 * reconciliation while the platform is down). Used by the job's last attempt and when its job
 * died without running. Failing an already failed check changes nothing.
 */
export async function failCheck(rt: CheckRuntime, check: CheckRecord, reason: string): Promise<void> {
  const now = rt.now();
  if (!check.free && check.orderId) {
    await rt.orders.refundUndelivered(check.orderId, {
      reason: TEXTS.refundFailedCheck,
      statusText: TEXTS.failedCheckStatus,
      update: (tx) => markFailed(tx, check.id, reason, now),
    });
    return;
  }
  await rt.db.transaction().execute(async (tx) => {
    const changed = await markFailed(tx, check.id, reason, now);
    if (changed && check.free)
      await restoreEntitlement(check.userId, entitlementOfKind(check.kind), { tx, usedFor: check.id });
  });
}

/**
 * Account deletion (or closing), inside its transaction, after the orders module's hook locked
 * every order of the account (modules/orders/README.md, "Lock order"); the account's checks not
 * done are locked first (ascending id), so a free start or a retry under way is waited for. Nobody
 * can read a report of the account any more, so no check of it keeps running and none keeps its
 * money: every check that has not delivered its report is stopped (failed, its job cancelled; a run already under way ends
 * without a report, see check.jobs.ts) and, when its order was paid and its money is not already on
 * the way back, the order is refunded in full automatically — the path of a paid check that failed
 * (refundUndelivered: the order, then the check, then the payment and its new refund), the refund
 * carried out by a job once the deletion commits. An unpaid order was cancelled by the orders hook
 * (a payment still arriving is refunded as a late one); its check is left pending, so a payment
 * accepted for an order that had expired is refunded by the onPaid hook (the check is hidden).
 */
export async function stopChecksOfErasedAccount(
  rt: Pick<CheckRuntime, 'orders'>,
  tx: Kysely<Database>,
  userId: string,
  now: Date,
  erasure: 'deleted' | 'closed' = 'deleted',
): Promise<void> {
  const orders = rt.orders;
  const texts =
    erasure === 'deleted'
      ? {
          refund: TEXTS.refundDeletedAccount,
          status: TEXTS.deletedAccountStatus,
          stopped: TEXTS.stoppedDeletedAccount,
        }
      : {
          refund: TEXTS.refundClosedAccount,
          status: TEXTS.closedAccountStatus,
          stopped: TEXTS.stoppedClosedAccount,
        };
  const stop = async (checkId: string): Promise<boolean> => {
    const current = await lockCheck(tx, checkId);
    if (!current || current.status === 'done') return false;
    if (await markStopped(tx, current.id, texts.stopped, now)) {
      if (current.jobId) await cancelJob(tx, current.jobId);
    }
    return true;
  };
  for (const check of await lockUndeliveredChecksOf(tx, userId)) {
    if (check.free || !check.orderId) {
      if (check.status === 'queued' || check.status === 'running') await stop(check.id);
      continue;
    }
    if (!paidAndKept(await orders.getOrder(check.orderId, { tx }))) continue;
    await orders.refundUndelivered(check.orderId, {
      tx,
      reason: texts.refund,
      statusText: texts.status,
      update: () => stop(check.id),
    });
  }
}

// ---------------------------------------------------------------------------------------------
// Status, report, downloads

/** A queued/running check whose job failed or vanished without its handler noticing (e.g. crashed on the last attempt). */
async function reconcile(rt: CheckRuntime, check: CheckRecord): Promise<CheckRecord> {
  if (check.status !== 'queued' && check.status !== 'running') return check;
  if (!check.jobId) return check;
  const job = await getJob(rt.db, check.jobId);
  if (job && (job.status === 'queued' || job.status === 'running' || job.status === 'succeeded'))
    return check;
  const reason = `${TEXTS.jobLost}。${check.free ? failedFreeText(check.kind) : TEXTS.failedPaid}`;
  await failCheck(rt, check, reason);
  return (await findCheck(rt.db, check.id)) ?? check;
}

/** The check's order as the status needs it (an OrderView). */
interface OrderOfCheck {
  status: string;
  statusText: string;
  canPay: boolean;
  payStatus: number;
  autoRefund: boolean;
  autoRefundFailed: boolean;
  /** A transfer proof waits for an operator (the order says 待确认). */
  offlinePending: boolean;
}

/** The order is paid and its money is not on its way back. */
function paidAndKept(order: Pick<OrderOfCheck, 'payStatus' | 'autoRefund'> | null | undefined): boolean {
  return order != null && !order.autoRefund && order.payStatus === 1;
}

/** A failed check may run again: a free one (its entitlement came back), or a paid one still paid for. */
function canRetry(check: CheckRecord, order: OrderOfCheck | undefined): boolean {
  if (check.status !== 'failed') return false;
  return check.free || paidAndKept(order);
}

function statusView(check: CheckRecord, orderStatus?: OrderOfCheck) {
  let statusText = CHECK_STATUS_TEXTS[check.status];
  if (check.status === 'pending') {
    if (check.free) statusText = TEXTS.freeStatus;
    else if (orderStatus?.offlinePending) statusText = orderStatus.statusText;
    else if (orderStatus && orderStatus.status !== 'pending_payment')
      statusText = TEXTS.orderClosed(orderStatus.statusText);
    else if (orderStatus && !orderStatus.canPay) statusText = TEXTS.orderClosed('已过期');
  }
  // A paid check that failed: its order says where the money is (检测失败，已自动退款).
  let failureReason = check.failureReason;
  if (check.status === 'failed' && orderStatus?.autoRefund) {
    statusText = orderStatus.statusText;
    // The stored reason promised the automatic refund; the platform refused it.
    if (orderStatus.autoRefundFailed)
      failureReason =
        orderStatus.status === 'refunded' ? TEXTS.failedPaidRefundedByHand : TEXTS.failedPaidRefundFailed;
  }
  return {
    orderId: check.id,
    free: check.free,
    /** similarity (查重) | aigc (AIGC检测) */
    kind: check.kind,
    /** pending (waiting for payment / the free start) | queued | running | done | failed */
    checkStatus: check.status,
    checkStatusText: statusText,
    stage: check.stage,
    stageText: check.stage ? CHECK_STAGE_TEXTS[check.stage] : null,
    /** 0–100 */
    progress: check.status === 'done' ? 100 : check.progress,
    failureReason,
    canRetry: canRetry(check, orderStatus),
    reportReady: check.status === 'done',
  };
}

/**
 * The order of a paid check that is failed (where its money is) or waiting for payment (expired or
 * closed orders say so, as in the list); undefined otherwise.
 */
async function orderOfCheck(rt: CheckRuntime, check: CheckRecord) {
  if ((check.status !== 'failed' && check.status !== 'pending') || check.free || !check.orderId)
    return undefined;
  return rt.orders.getOrder(check.orderId);
}

/** What a polling page needs (also merged into /freeCheck/orderPayStatus). */
export async function getCheckStatus(rt: CheckRuntime, userId: string, orderId: string) {
  const check = await reconcile(rt, await getOwnCheck(rt, userId, orderId));
  return statusView(check, await orderOfCheck(rt, check));
}

/** Like getCheckStatus, but null when the user has no such check (an order of another kind). */
export async function findCheckStatus(rt: CheckRuntime, userId: string, orderId: string) {
  const found = UUID.test(orderId) ? await findUserCheck(rt.db, userId, orderId) : undefined;
  if (!found) return null;
  const check = await reconcile(rt, found);
  return statusView(check, await orderOfCheck(rt, check));
}

async function getFinishedReport(rt: CheckRuntime, userId: string, orderId: string) {
  const check = await reconcile(rt, await getOwnCheck(rt, userId, orderId));
  if (check.status !== 'done') {
    const message =
      check.status === 'pending'
        ? TEXTS.notReadyPending
        : check.status === 'failed'
          ? TEXTS.failedNotReady
          : TEXTS.notReady(CHECK_STATUS_TEXTS[check.status], check.progress);
    throw new AppError(ErrorCode.CHECK_NOT_READY, message);
  }
  const report = await findReport(rt.db, check.id);
  if (!report) throw new AppError(ErrorCode.CHECK_NOT_READY);
  return { check, report };
}

/**
 * /freeCheck/report: the stored report model as JSON text, sent as is inside the envelope (no
 * parse/serialise round trip for an 80,000-character thesis).
 */
export async function getReportJson(rt: CheckRuntime, userId: string, orderId: string): Promise<string> {
  const { report } = await getFinishedReport(rt, userId, orderId);
  if (!report.modelKey) throw new AppError(ErrorCode.RESOURCE_NOT_FOUND, TEXTS.filesRemoved);
  return (await rt.storage.get(report.modelKey)).toString('utf8');
}

export type DownloadKind = 'pdf' | 'marked' | 'html' | 'zip';

const CONTENT_TYPES: Record<DownloadKind, string> = {
  pdf: 'application/pdf',
  marked: 'application/pdf',
  html: 'text/html; charset=utf-8',
  zip: 'application/zip',
};

export async function openDownload(rt: CheckRuntime, userId: string, orderId: string, kind: DownloadKind) {
  const { check, report } = await getFinishedReport(rt, userId, orderId);
  const keys: Record<DownloadKind, string | null> = {
    pdf: report.pdfKey,
    marked: report.markedPdfKey,
    html: report.htmlKey,
    zip: report.zipKey,
  };
  // An AIGC report has one file, its PDF.
  if (check.kind === 'aigc' && kind !== 'pdf')
    throw new AppError(ErrorCode.RESOURCE_NOT_FOUND, TEXTS.aigcPdfOnly);
  const key = keys[kind];
  if (!key) throw new AppError(ErrorCode.RESOURCE_NOT_FOUND, TEXTS.filesRemoved);
  try {
    const file = await rt.storage.open(key);
    const fileName = check.kind === 'aigc' ? aigcReportFileName(check) : reportFileNames(check)[kind];
    return { ...file, fileName, contentType: CONTENT_TYPES[kind] };
  } catch (error) {
    if (error instanceof FileNotFoundError)
      throw new AppError(ErrorCode.RESOURCE_NOT_FOUND, TEXTS.filesRemoved);
    throw error;
  }
}

// ---------------------------------------------------------------------------------------------
// The user's list, deletion

export async function listChecks(rt: CheckRuntime, userId: string, page: number, pageSize: number) {
  const { total, rows } = await listUserChecks(rt.db, userId, {
    offset: (page - 1) * pageSize,
    limit: pageSize,
  });
  const orders = rt.orders;
  const list = [];
  for (const row of rows) {
    const check = await reconcile(rt, row.check);
    const order = check.orderId ? await orders.getOrder(check.orderId) : undefined;
    const status = statusView(check, order);
    const awaitingPayment = check.status === 'pending' && !check.free && order?.canPay === true;
    list.push({
      ...status,
      orderNo: order?.orderNo ?? check.checkNo,
      title: check.title,
      author: check.author,
      fileName: check.fileName,
      goodsId: check.goodsId,
      goodsName: order?.goodsName ?? null,
      chars: check.chars,
      amount: formatFenAsYuan(check.amountFen),
      amountFen: check.amountFen,
      free: check.free,
      payStatus: order ? order.payStatus : check.status === 'pending' ? 0 : 1,
      orderStatus: order?.status ?? null,
      /** A transfer proof waits for an operator: no 去支付, no 删除; `offlinePendingText` says what next. */
      offlinePending: order?.offlinePending === true,
      offlinePendingText: order?.offlinePendingText ?? null,
      createdAt: check.createdAt.toISOString(),
      finishedAt: check.finishedAt?.toISOString() ?? null,
      reportNo: row.report?.reportNo ?? null,
      /** 总文字复制比 (0–1) once the report exists; for an AIGC check its AIGC index / 100. */
      ratio: row.report?.ratio ?? null,
      /** AIGC check: whether its index is in the reliable range (else 未见明显AI生成特征). */
      aigcReliable: check.kind === 'aigc' && row.report ? aigcReliableOf(row.report.summary) : null,
      actions: {
        view: check.status === 'done',
        download: check.status === 'done',
        pay: awaitingPayment,
        start: check.status === 'pending' && check.free,
        retry: status.canRetry,
        // Not while it runs, nor once paid and about to start, nor while a transfer proof waits for
        // an operator (deleteCheck refuses all three).
        delete:
          check.status !== 'queued' &&
          check.status !== 'running' &&
          !(check.status === 'pending' && (order?.payStatus === 1 || order?.offlinePending === true)),
      },
    });
  }
  return { total, list };
}

/**
 * Cancels the order of a check being deleted while it still awaits payment, through the orders
 * module (its QR codes closed first; a payment arriving later is refunded as a late one). An order
 * no longer pending (paid, expired, cancelled) is left as it is.
 */
async function cancelUnpaidOrder(rt: CheckRuntime, userId: string, check: CheckRecord): Promise<void> {
  if (!check.orderId) return;
  const orders = rt.orders;
  const order = await orders.getOrder(check.orderId);
  if (order?.status !== 'pending_payment') return;
  try {
    await orders.cancelOrder(userId, order.orderId, { reason: TEXTS.orderCancelledByDelete });
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    // Expired or cancelled meanwhile: nothing left to cancel.
    if (error.code === ErrorCode.ORDER_NOT_CANCELLABLE) return;
    // Paid meanwhile: the check starts now and cannot be deleted.
    if (error.code === ErrorCode.ORDER_ALREADY_PAID)
      throw new AppError(ErrorCode.CHECK_IN_PROGRESS, TEXTS.paidWhileDeleting, { cause: error });
    // A platform that cannot close the QR code now, an offline payment under review: not deleted.
    throw error;
  }
}

/**
 * /freeCheck/deleteOrder: hides the check and removes its files (upload, text, report files). An
 * order still awaiting payment is cancelled first (with the reason); any other order and its
 * payments stay (money records are never deleted); the signed report summary stays so a printed
 * report can still be verified.
 *
 * A payment can still be accepted for an unpaid check that is being or has been deleted: an
 * expired order (it cannot be cancelled) whose payment was made before its expiry and is reported
 * late, or one landing while this runs. The delete and the payment both lock the check's row — the
 * payment in its onPaid hook, inside the transaction that marks the order paid — so exactly one
 * wins: a payment accepted first (check queued, or order paid and its hook still to run) makes the
 * delete fail with 4010 and the check runs; a delete first makes the hook answer that the service
 * can no longer be delivered, and the orders module refunds the payment (no check job runs).
 */
export async function deleteCheck(rt: CheckRuntime, userId: string, orderId: string): Promise<void> {
  const check = await reconcile(rt, await getOwnCheck(rt, userId, orderId));
  if (check.status === 'queued' || check.status === 'running')
    throw new AppError(ErrorCode.CHECK_IN_PROGRESS);
  if (check.status === 'pending') await cancelUnpaidOrder(rt, userId, check);
  const orders = rt.orders;
  const hidden = await rt.db.transaction().execute(async (tx) => {
    const current = await lockCheck(tx, check.id);
    if (!current || current.hiddenAt) return undefined; // deleted meanwhile (a second click)
    if (current.status === 'queued' || current.status === 'running') {
      throw new AppError(
        ErrorCode.CHECK_IN_PROGRESS,
        check.status === 'pending' ? TEXTS.paidWhileDeleting : undefined,
      );
    }
    if (current.status === 'pending' && current.orderId) {
      // Paid, its check not queued yet (the onPaid hook is retried shortly): it will run.
      const order = await orders.getOrder(current.orderId, { tx });
      if (order?.payStatus === 1) throw new AppError(ErrorCode.CHECK_IN_PROGRESS, TEXTS.paidWhileDeleting);
    }
    const report = await findReport(tx, current.id);
    await hideCheck(tx, current.id, rt.now());
    return { current, report };
  });
  if (!hidden) return;
  const { current, report } = hidden;
  const keys = [
    current.fileKey,
    current.textKey,
    report?.modelKey,
    report?.pdfKey,
    report?.markedPdfKey,
    report?.htmlKey,
    report?.zipKey,
  ].filter((k): k is string => typeof k === 'string');
  for (const key of keys) await rt.storage.delete(key);
  const folders = new Set(keys.map((k) => k.slice(0, k.lastIndexOf('/'))));
  for (const folder of folders) await rt.storage.deleteFolder(folder).catch(() => undefined);
}

// ---------------------------------------------------------------------------------------------
// Verification

/** /freeCheck/verify: the signed summary when number and code match and the record is untouched. */
export async function verifyReport(rt: CheckRuntime, reportNo: string, code: string) {
  const report: CheckReportRecord | undefined = await findReportByNo(rt.db, reportNo.trim().toUpperCase());
  const summary = report?.summary as ReportSummary | undefined;
  if (
    !report ||
    !summary ||
    !isGenuine(rt.signingSecret, summary, report.signature, code.trim().toUpperCase())
  ) {
    throw new AppError(ErrorCode.REPORT_NOT_GENUINE);
  }
  return { genuine: true, message: TEXTS.verifyOk, ...summary };
}
