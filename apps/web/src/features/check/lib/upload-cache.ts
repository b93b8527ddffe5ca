import type { CheckListItem, UploadResult } from '../types';

/**
 * The parsed paper of an order, kept for this tab's session so that a reload of /check?orderId=…
 * (or coming back from 我的订单) shows the characters and the price again before paying. Only what
 * the order box shows; never the paper's text.
 */
export type OrderSummary = Pick<
  UploadResult,
  'orderId' | 'orderNo' | 'chars' | 'amount' | 'free' | 'goodsId' | 'title' | 'author' | 'fileName'
> &
  Partial<
    Pick<
      UploadResult,
      'price' | 'freeNote' | 'warnings' | 'addToLibrary' | 'goodsName' | 'parts' | 'aigcAddon'
    >
  >;

const PREFIX = 'kyfw.check.order.';

export function rememberUpload(result: UploadResult): void {
  const summary: OrderSummary = {
    orderId: result.orderId,
    orderNo: result.orderNo,
    chars: result.chars,
    amount: result.amount,
    price: result.price,
    free: result.free,
    freeNote: result.freeNote,
    goodsId: result.goodsId,
    goodsName: result.goodsName,
    title: result.title,
    author: result.author,
    fileName: result.fileName,
    warnings: result.warnings,
    addToLibrary: result.addToLibrary,
    parts: result.parts,
    aigcAddon: result.aigcAddon,
  };
  try {
    sessionStorage.setItem(PREFIX + result.orderId, JSON.stringify(summary));
  } catch {
    // storage full or disabled: the page falls back to the order list
  }
}

export function recallUpload(orderId: string): OrderSummary | null {
  try {
    const raw = sessionStorage.getItem(PREFIX + orderId);
    return raw ? (JSON.parse(raw) as OrderSummary) : null;
  } catch {
    return null;
  }
}

/** The same summary from a row of /freeCheck/orderList (when this tab did not upload it). */
export function summaryFromListItem(item: CheckListItem): OrderSummary {
  return {
    orderId: item.orderId,
    orderNo: item.orderNo,
    chars: item.chars,
    amount: item.amount,
    free: item.free,
    goodsId: item.goodsId,
    goodsName: item.goodsName ?? undefined,
    parts: item.parts,
    title: item.title,
    author: item.author,
    fileName: item.fileName,
  };
}
