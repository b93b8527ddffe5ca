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
