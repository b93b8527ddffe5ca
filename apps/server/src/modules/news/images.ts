import { randomUUID } from 'node:crypto';
import { ARTICLE_RULES, IMAGE_BREAKPOINTS, IMAGE_DENSITIES, type NewsImage } from '@kyfw/contracts';
import type { Database, Kysely } from '@kyfw/db';
import sharp, { type Metadata } from 'sharp';
import type { FileStorage } from '../../lib/storage/index.ts';

/** Every width an image may be stored at: the spec's breakpoints at densities 1 and 2 (§9). */
export const IMAGE_WIDTHS: readonly number[] = [
  ...new Set(Object.values(IMAGE_BREAKPOINTS).flatMap((w) => IMAGE_DENSITIES.map((d) => w * d))),
].sort((a, b) => a - b);

/** Covers are cropped to 16:9 (list cards, the article head, share previews all use it). */
const ASPECT = 9 / 16;
/** Share previews: one JPEG (WeChat and others do not all read WebP). */
const OG_WIDTH = 1200;
/** The width `src` names for browsers without srcset: the lg breakpoint, or the largest below it. */
const FALLBACK_WIDTH = IMAGE_BREAKPOINTS.lg;
/** A decompression bomb is refused before it is decoded. */
const MAX_INPUT_PIXELS = 40_000_000;

export class ImageRejected extends Error {
  override readonly name = 'ImageRejected';
}

const key = (id: string, file: string) => `news/images/${id}/${file}`;
export const imagePath = (id: string, file: string) => `/media/news/${id}/${file}`;

export function toImageView(row: { id: string; widths: unknown }): NewsImage {
  const raw = typeof row.widths === 'string' ? JSON.parse(row.widths) : row.widths;
  const widths = (Array.isArray(raw) ? raw : []).map(Number).filter((w) => Number.isFinite(w) && w > 0);
  const fallback = [...widths].reverse().find((w) => w <= FALLBACK_WIDTH) ?? widths[0] ?? 0;
  return {
    id: row.id,
    src: imagePath(row.id, `w${fallback}.webp`),
    srcset: widths.map((w) => `${imagePath(row.id, `w${w}.webp`)} ${w}w`).join(', '),
    width: widths.at(-1) ?? 0,
    height: Math.round((widths.at(-1) ?? 0) * ASPECT),
    ogSrc: imagePath(row.id, 'og.jpg'),
  };
}

/**
 * Reads an upload (PNG, JPEG or WebP by its bytes), turns it upright (EXIF), crops it to 16:9 around
 * its most interesting part and stores WebP at every IMAGE_WIDTHS width the original can fill (at
 * least the smallest), plus the share-preview JPEG; metadata (EXIF, GPS) is not copied. Then records
 * it in news_images. Throws ImageRejected for anything that is not such an image.
 */
export async function storeNewsImage(
  deps: { db: Kysely<Database>; storage: FileStorage },
  data: Buffer,
): Promise<NewsImage> {
  if (data.length > ARTICLE_RULES.imageMaxBytes) throw new ImageRejected('too large');
  let meta: Metadata;
  try {
    meta = await sharp(data, { limitInputPixels: MAX_INPUT_PIXELS }).metadata();
  } catch {
    throw new ImageRejected('not an image');
  }
  if (!meta.format || !['png', 'jpeg', 'webp'].includes(meta.format)) throw new ImageRejected('format');
  const upright =
    (meta.orientation ?? 1) >= 5 ? { w: meta.height, h: meta.width } : { w: meta.width, h: meta.height };
  if (!upright.w || !upright.h || upright.w < ARTICLE_RULES.imageMinWidth)
    throw new ImageRejected('too small');
  // The 16:9 crop of the original is at most this wide.
  const cropWidth = Math.min(upright.w, Math.floor(upright.h / ASPECT));
  const widths = IMAGE_WIDTHS.filter((w) => w <= cropWidth);
  if (widths.length === 0) widths.push(IMAGE_WIDTHS[0]!);

  const id = randomUUID();
  const base = sharp(data, { limitInputPixels: MAX_INPUT_PIXELS }).rotate();
  const render = (width: number) =>
    base.clone().resize({ width, height: Math.round(width * ASPECT), fit: 'cover', position: 'attention' });
  // Decoded whole before anything is stored: whatever libvips refuses in the image (a bad CRC, a
  // truncated stream, a header that lies) is the upload's fault, answered as unreadable.
  const renditions: { name: string; bytes: Buffer }[] = [];
  try {
    for (const width of widths)
      renditions.push({
        name: `w${width}.webp`,
        bytes: await render(width).webp({ quality: 78 }).toBuffer(),
      });
    const og = await render(Math.min(OG_WIDTH, cropWidth))
      .flatten({ background: '#ffffff' })
      .jpeg({ quality: 82 })
      .toBuffer();
    renditions.push({ name: 'og.jpg', bytes: og });
  } catch (error) {
    throw new ImageRejected('unreadable', { cause: error });
  }
  let total = 0;
  try {
    for (const { name, bytes } of renditions) {
      if (name.endsWith('.webp')) total += bytes.length;
      await deps.storage.put(key(id, name), bytes);
    }
  } catch (error) {
    await deps.storage.deleteFolder(`news/images/${id}`);
    throw error;
  }
  await deps.db
    .insertInto('news_images')
    .values({
      id,
      width: widths.at(-1)!,
      height: Math.round(widths.at(-1)! * ASPECT),
      widths: JSON.stringify(widths),
      size_bytes: total,
    })
    .execute();
  return toImageView({ id, widths });
}

/** A stored image file by the names imagePath hands out; undefined for any other name. */
export function imageKey(id: string, file: string): string | undefined {
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(id)) return undefined;
  if (file !== 'og.jpg' && !/^w[0-9]{3,4}\.webp$/.test(file)) return undefined;
  return key(id, file);
}

export async function imageExists(db: Kysely<Database>, id: string): Promise<boolean> {
  return Boolean(await db.selectFrom('news_images').select('id').where('id', '=', id).executeTakeFirst());
}

/** An upload no article, body or case photo uses is deleted after this long (an editor's unsaved work). */
export const UNUSED_IMAGE_RETENTION_DAYS = 7;

/**
 * Deletes images uploaded before `before` that nothing uses: no article's cover, no case photo, no
 * article body (drafts too) naming their address. Files first, then the row, so a failure half-way
 * leaves a row that the next run retries. Returns the ids deleted.
 */
export async function purgeUnusedImages(
  deps: { db: Kysely<Database>; storage: FileStorage },
  before: Date,
): Promise<string[]> {
  const candidates = await deps.db
    .selectFrom('news_images')
    .select('id')
    .where('created_at', '<', before)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('articles').select('articles.id').whereRef('articles.cover_id', '=', 'news_images.id'),
        ),
      ),
    )
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('case_photos')
            .select('case_photos.id')
            .whereRef('case_photos.image_id', '=', 'news_images.id'),
        ),
      ),
    )
    .execute();
  const deleted: string[] = [];
  for (const { id } of candidates) {
    const inBody = await deps.db
      .selectFrom('articles')
      .select('id')
      .where('body_html', 'like', `%/media/news/${id}/%`)
      .executeTakeFirst();
    if (inBody) continue;
    await deps.storage.deleteFolder(`news/images/${id}`);
    await deps.db.deleteFrom('news_images').where('id', '=', id).execute();
    deleted.push(id);
  }
  return deleted;
}
