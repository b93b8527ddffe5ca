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
import { lockActiveAccount } from '../accounts/index.ts';
import { AIGC_TEXTS } from './aigc/aigc.texts.ts';
import { insertAddon } from './aigc/aigc-addon.repo.ts';
import { addonGoodsOf } from './aigc/aigc-addon.ts';
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
  busy: ErrorCode.RATE_LIMITED,
  // Nobody reads it: the client that sent the upload has gone.
  aborted: ErrorCode.VALIDATION,
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
  /** 同时检测AIGC: the AIGC detection ordered with this similarity check (decision 0020). */
  aigcAddon?: boolean;
  /** The request's: its client going away stops the parsing (lib/upload.ts extractionSignal). */
  signal?: AbortSignal;
}

function yuan(fen: number): { amount: string; amountFen: number } {
  return { amount: formatFenAsYuan(fen), amountFen: fen };
}

/**
 * The AIGC add-on's part of a similarity check: its goods and price for the paper's characters.
 * Refused (1001, nothing stored) for AIGC goods, when no AIGC goods is on sale, or over its limit.
 */
async function addonPart(rt: CheckRuntime, goods: { id: string }, chars: number) {
  if (checkKindOf(goods) !== 'similarity')
    throw new AppError(ErrorCode.VALIDATION, AIGC_TEXTS.addonNotForAigc);
  const addonGoods = await addonGoodsOf(rt);
  if (!addonGoods) throw new AppError(ErrorCode.VALIDATION, AIGC_TEXTS.addonUnavailable);
  if (chars > addonGoods.maxQuantity) {
    throw new AppError(
      ErrorCode.QUANTITY_OUT_OF_RANGE,
      AIGC_TEXTS.addonTooManyChars(chars, addonGoods.maxQuantity),
    );
  }
  const quantity = Math.max(chars, addonGoods.minQuantity);
  return { goods: addonGoods, quantity, amountFen: rt.orders.priceFor(addonGoods, quantity).amountFen };
}

/**
 * Parses the upload (in the extraction pool, with limits); every failure is an AppError in Chinese.
 * `signal`: the request's (lib/upload.ts extractionSignal), so a client that left stops the parsing.
 */
export async function extractUpload(
  rt: CheckRuntime,
  bytes: Uint8Array,
  fileName: string,
  signal?: AbortSignal,
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
      ...(signal ? { signal } : {}),
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
  const document = await extractUpload(rt, input.bytes, input.fileName, input.signal);
  const chars = countChars(document.text);
  if (chars === 0) throw new AppError(ErrorCode.CHECK_FILE_EMPTY);
  if (chars > goods.maxQuantity) {
    throw new AppError(ErrorCode.QUANTITY_OUT_OF_RANGE, TEXTS.tooManyChars(chars, goods.maxQuantity));
  }
  const quantity = Math.max(chars, goods.minQuantity);
  const checkPrice = orders.priceFor(goods, quantity).amountFen;
  const addon = input.aigcAddon ? await addonPart(rt, goods, chars) : undefined;
  const amountFen = checkPrice + (addon?.amountFen ?? 0);

  const cap = freeCapOf(rt, goods);
  let freeNote: string | null = null;
  let free = false;
  if (cap !== null && (await hasFreeCheck(rt.db, input.userId, goods))) {
    if (chars <= cap) free = true;
    else freeNote = TEXTS.freeOverCap(chars, cap);
  }
  // With the add-on the check is free only when its free AIGC detection applies too (decision 0020).
  if (free && addon) {
    const addonCap = freeCapOf(rt, addon.goods);
    const addonFree =
      addonCap !== null && chars <= addonCap && (await hasFreeCheck(rt.db, input.userId, addon.goods));
    if (!addonFree) {
      free = false;
      freeNote = AIGC_TEXTS.addonNotFree;
    }
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
              quantity,
              meta: { title: input.title.slice(0, 100) },
              ...(addon ? { addons: [{ goodsId: addon.goods.id, quantity: addon.quantity }] } : {}),
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
          if (addon) {
            await insertAddon(tx, {
              checkId: check.id,
              goodsId: addon.goods.id,
              goodsName: addon.goods.name,
              amountFen: free ? 0 : addon.amountFen,
              free,
              now,
            });
          }
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
      goodsName: order?.goodsName ?? (addon ? `${goods.name}＋${addon.goods.name}` : goods.name),
      title: check.title,
      author: check.author,
      fileName: check.fileName,
      format: check.fileFormat,
      addToLibrary: check.addToLibrary,
      warnings: document.warnings,
      status: check.status,
      /** Each part priced by the server (the check, the AIGC add-on); [] without the add-on. */
      parts: addon
        ? [
            { goodsId: goods.id, goodsName: goods.name, ...yuan(checkPrice) },
            { goodsId: addon.goods.id, goodsName: addon.goods.name, ...yuan(addon.amountFen) },
          ]
        : [],
      aigcAddon: addon
        ? { goodsId: addon.goods.id, goodsName: addon.goods.name, ...yuan(free ? 0 : addon.amountFen), free }
        : null,
    };
  } catch (error) {
    await rt.storage.deleteFolder(folder).catch(() => undefined);
    throw error;
  }
}
