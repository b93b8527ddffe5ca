// Free of zod: the console's goods page imports these without pulling the schemas into its chunk.
import type { ServiceType } from './orders.ts';

/** Free entitlements a goods can accept, as the product grants them (accounts/benefits.ts). */
export const FREE_ENTITLEMENTS = ['free_check', 'free_aigc_detection', 'ai_writing_trial'] as const;
export type FreeEntitlement = (typeof FREE_ENTITLEMENTS)[number];

export const FREE_ENTITLEMENT_TEXTS: Record<FreeEntitlement, string> = {
  free_check: '免费查重',
  free_aigc_detection: '免费AIGC检测',
  ai_writing_trial: 'AI写作试用',
};

/**
 * The one free entitlement goods of this service type and id can accept (null: none): similarity
 * check goods the free check, AIGC detection goods (id aigc_detection…) the free detection, AI
 * writing goods the writing trial. The server refuses any other pairing.
 */
export function freeEntitlementFor(serviceType: ServiceType, goodsId: string): FreeEntitlement | null {
  if (serviceType === 'check')
    return goodsId.startsWith('aigc_detection') ? 'free_aigc_detection' : 'free_check';
  if (serviceType === 'ai_writing') return 'ai_writing_trial';
  return null;
}

export const GOODS_RULES = {
  nameMax: 60,
  descriptionMax: 500,
  unitMax: 20,
  freeTextMax: 60,
  /** 99,999.99 yuan. */
  priceMaxFen: 9_999_999,
  quantityMax: 10_000_000,
  /** A commissioned service's promised turnaround, calendar days. */
  turnaroundDaysMax: 365,
} as const;

/** Site info and friend links: the limits the server's schema and the console's form share. */
export const SITE_RULES = { nameMax: 50, fieldMax: 200, linksMax: 50, urlMax: 500 } as const;

/**
 * A price written into a goods' text (`每篇每库 15 元`, `¥18`, `2.5元/千字`): prices come only from
 * the goods' fields (单价, 计价单位), which every page renders, so a description may not repeat one
 * — it would go stale the day the price changes (issue 23).
 */
export const PRICE_IN_TEXT = /[¥￥]\s*\d|\d+(?:\.\d+)?\s*(?:元|块钱)/;

export const GOODS_DESCRIPTION_PRICE_ERROR =
  '商品说明中不要写价格（如“每篇 15 元”）：价格只由单价和计价单位决定，页面按它们显示';

/** A description with any price clause taken out (`，每篇每库 15 元` …): what users are shown. */
export function withoutPrices(text: string): string {
  return text
    .replace(/[，,；;]?\s*每[^，。,；;\d]{0,6}\s*\d+(?:\.\d+)?\s*元(?:\s*\/\s*[^，。,；;\s]{1,4})?/g, '')
    .replace(/[，,；;]?\s*[¥￥]\s*\d+(?:\.\d+)?(?:\s*元)?(?:\s*\/\s*[^，。,；;\s]{1,4})?/g, '')
    .replace(/[，,；;]?\s*\d+(?:\.\d+)?\s*(?:元|块钱)(?:\s*\/\s*[^，。,；;\s]{1,4})?/g, '')
    .replace(/^[，,；;\s]+/, '')
    .trim();
}
