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
