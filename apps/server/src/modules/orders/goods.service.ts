import { ErrorCode, withoutPrices } from '@kyfw/contracts';
import type { Database, Kysely, ServiceType } from '@kyfw/db';
import { AppError } from '../../lib/app-error.ts';
import { formatFenAsYuan } from '../../providers/payment/index.ts';
import { findGoods, type GoodsRecord, listActiveGoods } from './goods.repo.ts';
import { TEXTS } from './orders.texts.ts';

export type { GoodsRecord } from './goods.repo.ts';

/** Active goods by id; undefined when missing or inactive. */
export async function getGoods(db: Kysely<Database>, id: string): Promise<GoodsRecord | undefined> {
  const goods = await findGoods(db, id);
  return goods?.active ? goods : undefined;
}

/** Active goods of one service (all services when omitted), in display order. */
export function listGoods(db: Kysely<Database>, serviceType?: ServiceType): Promise<GoodsRecord[]> {
  return listActiveGoods(db, serviceType);
}

/**
 * The price of `quantity` (e.g. characters) of `goods`: ceil(quantity / unitSize) units at the
 * catalogue's unit price. The only place an amount is computed.
 * @throws AppError QUANTITY_OUT_OF_RANGE outside [minQuantity, maxQuantity] or for a non-integer.
 */
export function priceFor(goods: GoodsRecord, quantity: number): { units: number; amountFen: number } {
  if (!Number.isSafeInteger(quantity) || quantity < goods.minQuantity || quantity > goods.maxQuantity) {
    throw new AppError(
      ErrorCode.QUANTITY_OUT_OF_RANGE,
      TEXTS.quantityOutOfRange(
        goods.minQuantity,
        goods.maxQuantity,
        goods.unitSize === 1 ? goods.unit : '字',
      ),
    );
  }
  const units = Math.ceil(quantity / goods.unitSize);
  return { units, amountFen: units * goods.unitPriceFen };
}

/** Goods on the wire (docs/api/orders.md). */
export function toGoodsView(goods: GoodsRecord) {
  return {
    goodsId: goods.id,
    serviceType: goods.serviceType,
    name: goods.name,
    // Prices come only from the fields below: a price written into the text is not shown.
    description: withoutPrices(goods.description),
    unitPriceFen: goods.unitPriceFen,
    unitPrice: formatFenAsYuan(goods.unitPriceFen),
    unitSize: goods.unitSize,
    unit: goods.unit,
    minQuantity: goods.minQuantity,
    maxQuantity: goods.maxQuantity,
    freeRule: goods.freeRule,
  };
}
