import { type AddressRow, type Database, type Kysely, type OrderDeliveryRow, sql } from '@kyfw/db';

/** SQL of receiving addresses and courier deliveries. */

export interface AddressRecord {
  id: string;
  userId: string;
  name: string;
  phone: string;
  province: string;
  city: string;
  district: string;
  detail: string;
  isDefault: boolean;
  createdAt: Date;
  updatedAt: Date;
}

export type AddressFields = Pick<
  AddressRecord,
  'name' | 'phone' | 'province' | 'city' | 'district' | 'detail'
>;

function toAddress(row: AddressRow): AddressRecord {
  return {
    id: row.id,
    userId: row.user_id,
    name: row.name,
    phone: row.phone,
    province: row.province,
    city: row.city,
    district: row.district,
    detail: row.detail,
    isDefault: row.is_default,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export async function listUserAddresses(db: Kysely<Database>, userId: string): Promise<AddressRecord[]> {
  const rows = await db
    .selectFrom('addresses')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('is_default', 'desc')
    .orderBy('created_at', 'desc')
    .execute();
  return rows.map(toAddress);
}

export async function countUserAddresses(db: Kysely<Database>, userId: string): Promise<number> {
  const r = await db
    .selectFrom('addresses')
    .select(sql<number>`count(*)::int`.as('n'))
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

export async function findUserAddress(
  db: Kysely<Database>,
  userId: string,
  id: string,
): Promise<AddressRecord | undefined> {
  const row = await db
    .selectFrom('addresses')
    .selectAll()
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return row ? toAddress(row) : undefined;
}

export async function insertAddress(
  db: Kysely<Database>,
  userId: string,
  fields: AddressFields,
  now: Date,
): Promise<AddressRecord> {
  const row = await db
    .insertInto('addresses')
    .values({ user_id: userId, ...fields, created_at: now, updated_at: now })
    .returningAll()
    .executeTakeFirstOrThrow();
  return toAddress(row);
}

export async function updateAddress(
  db: Kysely<Database>,
  userId: string,
  id: string,
  fields: AddressFields,
  now: Date,
): Promise<AddressRecord | undefined> {
  const row = await db
    .updateTable('addresses')
    .set({ ...fields, updated_at: now })
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .returningAll()
    .executeTakeFirst();
  return row ? toAddress(row) : undefined;
}

/** Makes `id` the user's only default address (clear first: the unique index allows one). */
export async function setDefaultAddress(
  db: Kysely<Database>,
  userId: string,
  id: string,
  now: Date,
): Promise<boolean> {
  await db
    .updateTable('addresses')
    .set({ is_default: false })
    .where('user_id', '=', userId)
    .where('is_default', '=', true)
    .where('id', '<>', id)
    .execute();
  const r = await db
    .updateTable('addresses')
    .set({ is_default: true, updated_at: now })
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return r.numUpdatedRows > 0n;
}

export async function deleteAddress(
  db: Kysely<Database>,
  userId: string,
  id: string,
): Promise<AddressRecord | undefined> {
  const row = await db
    .deleteFrom('addresses')
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .returningAll()
    .executeTakeFirst();
  return row ? toAddress(row) : undefined;
}

export async function deleteUserAddresses(db: Kysely<Database>, userId: string): Promise<void> {
  await db.deleteFrom('addresses').where('user_id', '=', userId).execute();
}

/** Serialises address changes of one user (the default flag spans rows). */
export async function lockUserAddresses(tx: Kysely<Database>, userId: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtext(${`addresses:${userId}`}))`.execute(tx);
}

// --- deliveries ---------------------------------------------------------------------------------

export interface DeliveryRecord {
  orderId: string;
  addressId: string | null;
  recipientName: string;
  phone: string;
  province: string;
  city: string;
  district: string;
  detail: string;
  carrier: string | null;
  trackingNo: string | null;
  shippedAt: Date | null;
  updatedAt: Date;
}

function toDelivery(row: OrderDeliveryRow): DeliveryRecord {
  return {
    orderId: row.order_id,
    addressId: row.address_id,
    recipientName: row.recipient_name,
    phone: row.phone,
    province: row.province,
    city: row.city,
    district: row.district,
    detail: row.detail,
    carrier: row.carrier,
    trackingNo: row.tracking_no,
    shippedAt: row.shipped_at,
    updatedAt: row.updated_at,
  };
}

export async function findDelivery(
  db: Kysely<Database>,
  orderId: string,
): Promise<DeliveryRecord | undefined> {
  const row = await db
    .selectFrom('order_deliveries')
    .selectAll()
    .where('order_id', '=', orderId)
    .executeTakeFirst();
  return row ? toDelivery(row) : undefined;
}

/** Ties a copy of the address to the order; refused (false) once the parcel has shipped. */
export async function upsertDelivery(
  db: Kysely<Database>,
  orderId: string,
  address: AddressRecord,
  now: Date,
): Promise<boolean> {
  const values = {
    address_id: address.id,
    recipient_name: address.name,
    phone: address.phone,
    province: address.province,
    city: address.city,
    district: address.district,
    detail: address.detail,
    updated_at: now,
  };
  const row = await db
    .insertInto('order_deliveries')
    .values({ order_id: orderId, ...values, created_at: now })
    .onConflict((oc) =>
      oc.column('order_id').doUpdateSet(values).where('order_deliveries.shipped_at', 'is', null),
    )
    .returning('order_id')
    .executeTakeFirst();
  return row !== undefined;
}

export async function shipDelivery(
  db: Kysely<Database>,
  orderId: string,
  carrier: string,
  trackingNo: string,
  now: Date,
): Promise<boolean> {
  const r = await db
    .updateTable('order_deliveries')
    .set({ carrier, tracking_no: trackingNo, shipped_at: now, updated_at: now })
    .where('order_id', '=', orderId)
    .executeTakeFirst();
  return r.numUpdatedRows > 0n;
}
