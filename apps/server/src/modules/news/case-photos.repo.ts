import type { CasePhotoAdmin } from '@kyfw/contracts';
import type { Database, Kysely } from '@kyfw/db';
import { toImageView } from './images.ts';

function base(db: Kysely<Database>) {
  return db
    .selectFrom('case_photos')
    .innerJoin('news_images', 'news_images.id', 'case_photos.image_id')
    .select([
      'case_photos.id',
      'case_photos.title',
      'case_photos.caption',
      'case_photos.link_path',
      'case_photos.sort_order',
      'case_photos.visible',
      'news_images.id as image_id',
      'news_images.widths',
    ])
    .orderBy('case_photos.sort_order')
    .orderBy('case_photos.id');
}

type Row = Awaited<ReturnType<ReturnType<typeof base>['execute']>>[number];

function toView(row: Row): CasePhotoAdmin {
  return {
    id: String(row.id),
    title: row.title,
    caption: row.caption,
    linkPath: row.link_path,
    sortOrder: row.sort_order,
    visible: row.visible,
    image: toImageView({ id: row.image_id, widths: row.widths }),
  };
}

/** The case photos in display order; `visibleOnly` for the landing page. */
export async function listCasePhotos(db: Kysely<Database>, visibleOnly: boolean): Promise<CasePhotoAdmin[]> {
  const query = visibleOnly ? base(db).where('case_photos.visible', '=', true) : base(db);
  return (await query.execute()).map(toView);
}

export async function findCasePhoto(db: Kysely<Database>, id: string): Promise<CasePhotoAdmin | undefined> {
  const row = await base(db).where('case_photos.id', '=', id).executeTakeFirst();
  return row ? toView(row) : undefined;
}

export interface CasePhotoFields {
  imageId: string;
  title: string;
  caption: string;
  linkPath: string | null;
  sortOrder: number;
  visible: boolean;
}

/** Inserts (no id) or changes a case photo; its id, or undefined when `id` names none. */
export async function saveCasePhoto(
  db: Kysely<Database>,
  id: string | undefined,
  f: CasePhotoFields,
  now: Date,
): Promise<string | undefined> {
  const values = {
    image_id: f.imageId,
    title: f.title,
    caption: f.caption,
    link_path: f.linkPath,
    sort_order: f.sortOrder,
    visible: f.visible,
    updated_at: now,
  };
  if (!id) {
    const row = await db
      .insertInto('case_photos')
      .values({ ...values, created_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    return String(row.id);
  }
  const result = await db.updateTable('case_photos').set(values).where('id', '=', id).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0 ? id : undefined;
}

export async function deleteCasePhoto(db: Kysely<Database>, id: string): Promise<boolean> {
  const result = await db.deleteFrom('case_photos').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
