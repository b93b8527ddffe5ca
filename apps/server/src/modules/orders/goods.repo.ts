import type { Database, GoodsRow, Kysely, ServiceType } from '@kyfw/db';

// --- goods --------------------------------------------------------------------------------------

export interface GoodsRecord {
  id: string;
  serviceType: ServiceType;
  name: string;
  description: string;
  unitPriceFen: number;
  unitSize: number;
  unit: string;
  minQuantity: number;
  maxQuantity: number;
  freeRule: Record<string, unknown> | null;
  /** Check goods: the library collections it compares against; null: every collection. */
  libraryCollections: string[] | null;
  /** Check goods: the collections it is not sold without while they are empty (硕博: thesis). */
  libraryRequired: string[] | null;
  active: boolean;
  sortOrder: number;
  /** Commissioned services: calendar days promised after payment; null: none. */
  turnaroundDays: number | null;
}

function toGoods(row: GoodsRow): GoodsRecord {
  return {
    id: row.id,
    serviceType: row.service_type,
    name: row.name,
    description: row.description,
    unitPriceFen: row.unit_price_fen,
    unitSize: row.unit_size,
    unit: row.unit,
    minQuantity: row.min_quantity,
    maxQuantity: row.max_quantity,
    freeRule: (row.free_rule as Record<string, unknown> | null) ?? null,
    libraryCollections: row.library_collections ?? null,
    libraryRequired: row.library_required ?? null,
    active: row.active,
    sortOrder: row.sort_order,
    turnaroundDays: row.turnaround_days ?? null,
  };
}

export async function findGoods(db: Kysely<Database>, id: string): Promise<GoodsRecord | undefined> {
  const row = await db.selectFrom('goods').selectAll().where('id', '=', id).executeTakeFirst();
  return row ? toGoods(row) : undefined;
}

export async function listActiveGoods(
  db: Kysely<Database>,
  serviceType?: ServiceType,
): Promise<GoodsRecord[]> {
  let query = db.selectFrom('goods').selectAll().where('active', '=', true);
  if (serviceType) query = query.where('service_type', '=', serviceType);
  const rows = await query.orderBy('service_type').orderBy('sort_order').orderBy('id').execute();
  return rows.map(toGoods);
}

export async function updateGoods(
  db: Kysely<Database>,
  id: string,
  patch: Partial<{
    name: string;
    description: string;
    unitPriceFen: number;
    minQuantity: number;
    maxQuantity: number;
    active: boolean;
  }>,
  now: Date,
): Promise<GoodsRecord | undefined> {
  const row = await db
    .updateTable('goods')
    .set({
      ...(patch.name === undefined ? {} : { name: patch.name }),
      ...(patch.description === undefined ? {} : { description: patch.description }),
      ...(patch.unitPriceFen === undefined ? {} : { unit_price_fen: patch.unitPriceFen }),
      ...(patch.minQuantity === undefined ? {} : { min_quantity: patch.minQuantity }),
      ...(patch.maxQuantity === undefined ? {} : { max_quantity: patch.maxQuantity }),
      ...(patch.active === undefined ? {} : { active: patch.active }),
      updated_at: now,
    })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
  return row ? toGoods(row) : undefined;
}

// --- the console's catalogue (goods.console.ts) ---------------------------------------------------

/** Every goods, on sale or not, with how many orders were sold with it, in display order. */
export async function listAllGoods(db: Kysely<Database>) {
  const rows = await db
    .selectFrom('goods')
    .selectAll('goods')
    .select((eb) =>
      eb
        .selectFrom('orders')
        .select(eb.fn.countAll<string>().as('n'))
        .whereRef('orders.goods_id', '=', 'goods.id')
        .as('orders'),
    )
    .orderBy('service_type')
    .orderBy('sort_order')
    .orderBy('id')
    .execute();
  return rows.map((r) => ({ ...toGoods(r), orders: Number(r.orders ?? 0), updatedAt: r.updated_at }));
}

/** What the console sets when it creates or edits goods. */
export type GoodsFields = Pick<
  GoodsRecord,
  | 'serviceType'
  | 'name'
  | 'description'
  | 'unitPriceFen'
  | 'unitSize'
  | 'unit'
  | 'minQuantity'
  | 'maxQuantity'
  | 'freeRule'
  | 'sortOrder'
  | 'turnaroundDays'
>;

const columnsOf = (f: GoodsFields) => ({
  name: f.name,
  description: f.description,
  unit_price_fen: f.unitPriceFen,
  unit_size: f.unitSize,
  unit: f.unit,
  min_quantity: f.minQuantity,
  max_quantity: f.maxQuantity,
  free_rule: f.freeRule === null ? null : JSON.stringify(f.freeRule),
  sort_order: f.sortOrder,
  turnaround_days: f.turnaroundDays,
});

/** New goods, on sale; false when the id is taken. */
export async function insertGoods(db: Kysely<Database>, id: string, f: GoodsFields, now: Date) {
  const row = await db
    .insertInto('goods')
    .values({ id, service_type: f.serviceType, ...columnsOf(f), created_at: now, updated_at: now })
    .onConflict((oc) => oc.column('id').doNothing())
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

/** Replaces the editable fields (not the id, the service type or on/off sale); false when missing. */
export async function replaceGoodsFields(db: Kysely<Database>, id: string, f: GoodsFields, now: Date) {
  const row = await db
    .updateTable('goods')
    .set({ ...columnsOf(f), updated_at: now })
    .where('id', '=', id)
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

/** How many orders, checks and commissions name the goods (any: it cannot be deleted). */
export async function goodsUses(db: Kysely<Database>, id: string): Promise<number> {
  const count = (table: 'orders' | 'checks' | 'commissions') =>
    db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('goods_id', '=', id)
      .executeTakeFirstOrThrow()
      .then((r) => Number(r.n));
  const counts = await Promise.all([count('orders'), count('checks'), count('commissions')]);
  return counts.reduce((a, b) => a + b, 0);
}

/** Deletes goods nothing uses (checked again by the foreign keys); false when missing. */
export async function deleteGoods(db: Kysely<Database>, id: string): Promise<boolean> {
  const row = await db.deleteFrom('goods').where('id', '=', id).returning('id').executeTakeFirst();
  return row !== undefined;
}
