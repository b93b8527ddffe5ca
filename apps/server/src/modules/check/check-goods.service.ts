import { ErrorCode } from '@kyfw/contracts';
import type { Database, Kysely } from '@kyfw/db';
import { AppError } from '../../lib/app-error.ts';
import { formatFenAsYuan } from '../../providers/payment/index.ts';
import { listEntitlements } from '../accounts/index.ts';
import type { GoodsRecord } from '../orders/index.ts';
import { checkKindOf, entitlementOfKind } from './aigc/aigc-report.ts';
import type { CheckRecord } from './check.repo.ts';
import type { CheckRuntime } from './check.runtime.ts';
import { TEXTS } from './check.texts.ts';
import { collectionsOf, saleRefusalOf, scopeOf } from './library/collections.ts';

/** The check goods as the upload page lists them, and the free check rules of each. */

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

export function freeUsedText(kind: CheckRecord['kind']): string {
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

export async function hasFreeCheck(
  db: Kysely<Database>,
  userId: string,
  goods: GoodsRecord,
): Promise<boolean> {
  return (await heldEntitlements(db, userId)).has(entitlementOfKind(checkKindOf(goods)));
}

export async function getCheckGoods(rt: CheckRuntime, goodsId: string): Promise<GoodsRecord> {
  const goods = await rt.orders.getGoods(goodsId);
  if (goods?.serviceType !== 'check') throw new AppError(ErrorCode.GOODS_NOT_FOUND);
  return goods;
}

/** Refuses (1001, nothing created) goods that cannot be ordered now: see saleRefusalOf. */
export async function assertGoodsOnSale(rt: CheckRuntime, goods: GoodsRecord): Promise<void> {
  if (checkKindOf(goods) !== 'similarity') return;
  const refusal = saleRefusalOf(goods, await rt.library.composition());
  if (refusal) throw new AppError(ErrorCode.VALIDATION, refusal);
}

export async function listCheckGoods(rt: CheckRuntime, userId: string | null) {
  const orders = rt.orders;
  const goods = await orders.listGoods('check');
  const states = userId ? await freeUseStates(rt.db, userId) : null;
  const composition = await rt.library.composition();
  const pricePerThousand = (g: GoodsRecord) =>
    formatFenAsYuan(Math.round((g.unitPriceFen * 1000) / g.unitSize));
  // The AIGC goods sold as the add-on of a similarity check (同时检测AIGC, decision 0020).
  const addonGoods = goods.find((g) => checkKindOf(g) === 'aigc');
  const addonCap = addonGoods ? freeCapOf(rt, addonGoods) : null;
  const addon = addonGoods
    ? {
        goodsId: addonGoods.id,
        name: addonGoods.name,
        pricePerThousand: pricePerThousand(addonGoods),
        freeAvailable: addonCap !== null && states?.get('free_aigc_detection') === 'available',
        freeMaxChars: addonCap,
      }
    : null;
  return goods.map((g) => {
    const cap = freeCapOf(rt, g);
    const refusal = checkKindOf(g) === 'similarity' ? saleRefusalOf(g, composition) : null;
    const status: FreeUseState = states ? (states.get(entitlementOfKind(checkKindOf(g))) ?? 'none') : 'login';
    return {
      ...orders.toGoodsView(g),
      /** similarity: 查重; aigc: AIGC检测. */
      kind: checkKindOf(g),
      /** Per 1,000 characters, in yuan: what the page shows as 元/千字. */
      pricePerThousand: pricePerThousand(g),
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
      /** Can be ordered now; false while a collection it is not sold without is empty (硕博: thesis). */
      available: refusal === null,
      /** Why not (shown on its card; /freeCheck/uploadFile refuses it with the same text). */
      unavailableReason: refusal,
      /** Similarity goods: the AIGC detection that can be ordered with it; null otherwise. */
      aigcAddon: checkKindOf(g) === 'similarity' ? addon : null,
    };
  });
}
