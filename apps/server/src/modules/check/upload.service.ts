import { createHash, randomInt, randomUUID } from 'node:crypto';
import { ErrorCode, type ErrorCodeValue } from '@kyfw/contracts';
import { countChars } from '@kyfw/simcheck';
import {
  ExtractError,
  type ExtractErrorKind,
  type ExtractedDocument,
  extractDocument,
} from '@kyfw/simcheck/extract';
import { AppError } from '../../lib/app-error.ts';
import { formatFenAsYuan } from '../../providers/payment/index.ts';
import { lockActiveAccount } from '../accounts/accounts.service.ts';
import { checkKindOf } from './aigc/aigc-report.ts';
import { insertCheck, setCheckFiles } from './check.repo.ts';
import type { CheckRuntime } from './check.runtime.ts';
import { TEXTS } from './check.texts.ts';
import { assertGoodsOnSale, freeCapOf, getCheckGoods, hasFreeCheck } from './check-goods.service.ts';

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

/** 'JC' + yyyyMMddHHmmss (China time) + 6 random digits. */
function newCheckNo(now: Date): string {
  const stamp = new Date(now.getTime() + 8 * 3600_000).toISOString().replace(/\D/g, '').slice(0, 14);
  return `JC${stamp}${String(randomInt(1_000_000)).padStart(6, '0')}`;
}

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
  await assertGoodsOnSale(rt, goods);
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
