import { randomUUID } from 'node:crypto';
import fastifyCookie from '@fastify/cookie';
import fastifyMultipart from '@fastify/multipart';
import { ErrorCode, SITE_RULES, type StaffRoleName, siteAdminApi } from '@kyfw/contracts';
import type { Database, Kysely } from '@kyfw/db';
import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { AppError } from '../../lib/app-error.ts';
import type { FileStorage } from '../../lib/storage/index.ts';
import { readUpload } from '../../lib/upload.ts';
import type { ConsoleModuleService } from '../console/index.ts';
import {
  countFriendLinks,
  deleteFriendLink,
  findSiteInfo,
  listFriendLinkRows,
  saveFriendLink,
  saveSiteInfo,
} from './home.repo.ts';
import type { HomeService } from './home.service.ts';

/** Who edits the footer: 编辑 (site content) and 管理员. */
const EDITORS: readonly StaffRoleName[] = ['admin', 'editor'];

/** The largest QR upload read, and the square it is stored as (PNG). */
const QR_MAX_BYTES = 2 * 1024 * 1024;
const QR_SIZE = 480;

export const SITE_TEXTS = {
  saved: '网站信息已保存，页脚立即显示新内容',
  linkSaved: '友情链接已保存',
  linkDeleted: '友情链接已删除',
  linkNotFound: '友情链接不存在',
  tooManyLinks: (n: number) => `友情链接最多 ${n} 个，请先删除不用的链接`,
  qrRequired: '请选择二维码图片（PNG、JPEG 或 WebP）',
  qrType: '二维码须为 PNG、JPEG 或 WebP 图片',
  qrTooLarge: '二维码图片不能超过 2 MB',
  qrUploaded: '二维码已上传，保存网站信息后生效',
} as const;

/** The key of an uploaded QR image (served at /media/site/qr/<uuid>.png), or undefined. */
export function siteQrKey(file: string): string | undefined {
  return /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.png$/.test(file)
    ? `site/qr/${file}`
    : undefined;
}

/**
 * Site info (the footer's webInfo) and friend links in the console (docs/api/operator.md, "Site
 * info and friend links"). Each change drops the home info cache of this process at once; other API
 * processes serve it within the cache's TTL (home.service.ts, 5 s).
 */
export async function siteConsoleRoutes(
  app: FastifyInstance,
  options: {
    db: Kysely<Database>;
    home: HomeService;
    storage: FileStorage;
    now: () => Date;
    console: ConsoleModuleService;
  },
): Promise<void> {
  const { db, home, now } = options;
  await app.register(fastifyCookie);
  await app.register(fastifyMultipart, { limits: { files: 1, fileSize: QR_MAX_BYTES, fields: 1, parts: 2 } });
  app.addHook('onSend', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
  });
  const { staffRoute } = options.console.staffRouting(app);

  staffRoute(siteAdminApi.siteGet, EDITORS, 'site.get', async () => {
    const webInfo = (await findSiteInfo(db)) ?? (await home.getHomeInfo()).webInfo;
    return { data: { webInfo, friendLinks: await listFriendLinkRows(db) } };
  });

  staffRoute(siteAdminApi.siteSave, EDITORS, 'site.save', async ({ body }) => {
    const before = (await findSiteInfo(db)) ?? null;
    await saveSiteInfo(db, body, now());
    home.invalidate();
    return { data: body, message: SITE_TEXTS.saved, target: 'webInfo', before, after: body };
  });

  staffRoute(siteAdminApi.siteQrUpload, EDITORS, 'site.qrUpload', async ({ request }) => {
    if (!request.isMultipart()) throw new AppError(ErrorCode.VALIDATION, SITE_TEXTS.qrRequired);
    const { file } = await readUpload(request, QR_MAX_BYTES / 1024 / 1024);
    if (!file || file.bytes.length === 0) throw new AppError(ErrorCode.VALIDATION, SITE_TEXTS.qrRequired);
    if (file.truncated) throw new AppError(ErrorCode.PAYLOAD_TOO_LARGE, SITE_TEXTS.qrTooLarge);
    let png: Buffer;
    try {
      const image = sharp(file.bytes, { limitInputPixels: 40_000_000 });
      const meta = await image.metadata();
      if (!meta.format || !['png', 'jpeg', 'webp'].includes(meta.format)) throw new Error('format');
      // Square, whole (never cropped: a cut QR code does not scan), on white, no metadata kept.
      png = await image
        .rotate()
        .resize({ width: QR_SIZE, height: QR_SIZE, fit: 'contain', background: '#ffffff' })
        .flatten({ background: '#ffffff' })
        .png()
        .toBuffer();
    } catch {
      throw new AppError(ErrorCode.UNSUPPORTED_MEDIA_TYPE, SITE_TEXTS.qrType);
    }
    const name = `${randomUUID()}.png`;
    await options.storage.put(`site/qr/${name}`, png);
    const url = `/media/site/qr/${name}`;
    return {
      data: { url },
      message: SITE_TEXTS.qrUploaded,
      target: url,
      detail: { bytes: file.bytes.length },
    };
  });

  staffRoute(siteAdminApi.linkSave, EDITORS, 'site.linkSave', async ({ body }) => {
    const rows = await listFriendLinkRows(db);
    const before = body.id ? rows.find((r) => r.id === body.id) : undefined;
    if (body.id && !before) throw new AppError(ErrorCode.RESOURCE_NOT_FOUND, SITE_TEXTS.linkNotFound);
    if (!body.id && (await countFriendLinks(db)) >= SITE_RULES.linksMax)
      throw new AppError(ErrorCode.VALIDATION, SITE_TEXTS.tooManyLinks(SITE_RULES.linksMax));
    const after = await saveFriendLink(db, body, now());
    if (!after) throw new AppError(ErrorCode.RESOURCE_NOT_FOUND, SITE_TEXTS.linkNotFound);
    home.invalidate();
    return { data: after, message: SITE_TEXTS.linkSaved, target: after.id, before: before ?? null, after };
  });

  staffRoute(siteAdminApi.linkDelete, EDITORS, 'site.linkDelete', async ({ body }) => {
    const before = await deleteFriendLink(db, body.id);
    if (!before) throw new AppError(ErrorCode.RESOURCE_NOT_FOUND, SITE_TEXTS.linkNotFound);
    home.invalidate();
    return { data: null, message: SITE_TEXTS.linkDeleted, target: body.id, before, after: null };
  });
}
