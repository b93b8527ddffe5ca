import type { Database, Kysely } from '@kyfw/db';

export interface SiteInfo {
  name: string;
  contactPhone: string;
  companyAddress: string;
  qrCode: string;
  recordNumber: string;
  copyright: string;
}

export interface FriendLink {
  name: string;
  url: string;
}

/** The operator's footer information, or undefined before the database is seeded. */
export async function findSiteInfo(db: Kysely<Database>): Promise<SiteInfo | undefined> {
  const row = await db.selectFrom('site_settings').selectAll().where('id', '=', 1).executeTakeFirst();
  if (!row) return undefined;
  return {
    name: row.name,
    contactPhone: row.contact_phone,
    companyAddress: row.company_address,
    qrCode: row.qr_code,
    recordNumber: row.record_number,
    copyright: row.copyright,
  };
}

/** Friend links in display order. */
export async function listFriendLinks(db: Kysely<Database>): Promise<FriendLink[]> {
  return db.selectFrom('friend_links').select(['name', 'url']).orderBy('sort_order').orderBy('id').execute();
}

// --- the console's site info and friend links (site.console.ts) ------------------------------------

export interface FriendLinkRow {
  id: string;
  name: string;
  url: string;
  sortOrder: number;
}

/** Friend links with their ids and order, as the console edits them. */
export async function listFriendLinkRows(db: Kysely<Database>): Promise<FriendLinkRow[]> {
  const rows = await db
    .selectFrom('friend_links')
    .select(['id', 'name', 'url', 'sort_order'])
    .orderBy('sort_order')
    .orderBy('id')
    .execute();
  return rows.map((r) => ({ id: String(r.id), name: r.name, url: r.url, sortOrder: r.sort_order }));
}

/** Writes the one site_settings row (created when missing). */
export async function saveSiteInfo(db: Kysely<Database>, info: SiteInfo, now: Date): Promise<void> {
  const values = {
    name: info.name,
    contact_phone: info.contactPhone,
    company_address: info.companyAddress,
    qr_code: info.qrCode,
    record_number: info.recordNumber,
    copyright: info.copyright,
    updated_at: now,
  };
  await db
    .insertInto('site_settings')
    .values({ id: 1, ...values })
    .onConflict((oc) => oc.column('id').doUpdateSet(values))
    .execute();
}

/** Adds (no id) or changes a friend link; undefined when the id names none. */
export async function saveFriendLink(
  db: Kysely<Database>,
  link: { id?: string; name: string; url: string; sortOrder: number },
  now: Date,
): Promise<FriendLinkRow | undefined> {
  const values = { name: link.name, url: link.url, sort_order: link.sortOrder, updated_at: now };
  const row = link.id
    ? await db
        .updateTable('friend_links')
        .set(values)
        .where('id', '=', Number(link.id))
        .returning(['id', 'name', 'url', 'sort_order'])
        .executeTakeFirst()
    : await db
        .insertInto('friend_links')
        .values({ ...values, created_at: now })
        .returning(['id', 'name', 'url', 'sort_order'])
        .executeTakeFirst();
  return row && { id: String(row.id), name: row.name, url: row.url, sortOrder: row.sort_order };
}

export async function deleteFriendLink(db: Kysely<Database>, id: string): Promise<FriendLinkRow | undefined> {
  const row = await db
    .deleteFrom('friend_links')
    .where('id', '=', Number(id))
    .returning(['id', 'name', 'url', 'sort_order'])
    .executeTakeFirst();
  return row && { id: String(row.id), name: row.name, url: row.url, sortOrder: row.sort_order };
}

export async function countFriendLinks(db: Kysely<Database>): Promise<number> {
  const row = await db
    .selectFrom('friend_links')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
