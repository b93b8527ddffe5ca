import { type Kysely, sql } from 'kysely';
import type { Database } from './schema.ts';

/** Footer defaults for a fresh installation; the operator edits them in the database later. */
export const DEFAULT_SITE_SETTINGS = {
  name: '科研服务网',
  contact_phone: '400-800-6688',
  company_address: '北京市海淀区中关村大街27号',
  // Served by the web app from its public folder.
  qr_code: '/images/wechat-qr.png',
  record_number: '京ICP备2025000000号-1',
  copyright: 'Copyright © 2025 科研服务网（kyfw） 版权所有',
} as const;

export const DEFAULT_FRIEND_LINKS: ReadonlyArray<{ name: string; url: string }> = [
  { name: '中国知网', url: 'https://www.cnki.net' },
  { name: '万方数据', url: 'https://www.wanfangdata.com.cn' },
  { name: '维普网', url: 'https://www.cqvip.com' },
  { name: '国家科技图书文献中心', url: 'https://www.nstl.gov.cn' },
  { name: '中国国家图书馆', url: 'https://www.nlc.cn' },
  { name: '百度学术', url: 'https://xueshu.baidu.com' },
];

/** Advisory transaction-lock key for seeding ("seed" in ASCII), so concurrent starts seed once. */
const SEED_LOCK_KEY = 0x73656564;

/**
 * Fills a fresh database with the footer defaults. Runs on every start and inserts only when the
 * site_settings row is missing, i.e. on the first start: the friend links are seeded in the same
 * step, so an operator who later deletes them all does not get them back on restart.
 */
export async function seed(db: Kysely<Database>): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(${sql.lit(SEED_LOCK_KEY)})`.execute(trx);

    const inserted = await trx
      .insertInto('site_settings')
      .values({ id: 1, ...DEFAULT_SITE_SETTINGS })
      .onConflict((oc) => oc.column('id').doNothing())
      .returning('id')
      .executeTakeFirst();
    if (!inserted) return;

    await trx
      .insertInto('friend_links')
      .values(DEFAULT_FRIEND_LINKS.map((link, index) => ({ ...link, sort_order: (index + 1) * 10 })))
      .execute();
  });
}
