import fastifyCookie from '@fastify/cookie';
import fastifyMultipart from '@fastify/multipart';
import {
  type AdminArticle,
  ARTICLE_RULES,
  ErrorCode,
  newsAdminApi,
  type StaffRoleName,
} from '@kyfw/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../../lib/app-error.ts';
import { readUpload } from '../../lib/upload.ts';
import type { ConsoleModuleService } from '../console/index.ts';
import {
  findArticleById,
  insertArticle,
  listAllArticles,
  setArticleStatus,
  slugTaken,
  updateArticle,
} from './articles.repo.ts';
import { deleteCasePhoto, findCasePhoto, listCasePhotos, saveCasePhoto } from './case-photos.repo.ts';
import { ImageRejected, imageExists, storeNewsImage } from './images.ts';
import type { NewsModuleService } from './news.module.ts';
import { TEXTS } from './news.texts.ts';
import { sanitizeArticleHtml, textOf } from './sanitize.ts';

/** Who runs the news desk; the server refuses every other role (and records the refusal). */
const EDITORS: readonly StaffRoleName[] = ['admin', 'editor'];

/** What the audit log keeps of an article: everything but the body, of which its length and text head. */
function auditView(a: AdminArticle) {
  return {
    slug: a.slug,
    category: a.category,
    title: a.title,
    status: a.status,
    summary: a.summary,
    author: a.author,
    source: a.source,
    tags: a.tags,
    coverId: a.cover?.id ?? null,
    bodyChars: a.bodyHtml.length,
    bodyStart: textOf(a.bodyHtml).slice(0, 60),
  };
}

/**
 * The console's news desk (docs/api/operator.md, "Industry news"): articles, images, case photos,
 * under /kyfw/web/v1/admin with the console's staff session, role check and audit log.
 */
export async function newsConsoleRoutes(
  app: FastifyInstance,
  options: { news: NewsModuleService; console: ConsoleModuleService },
): Promise<void> {
  const { news } = options;
  const { db } = news;
  const mustFind = async (id: string) => {
    const article = await findArticleById(db, id);
    if (!article) throw new AppError(ErrorCode.RESOURCE_NOT_FOUND, TEXTS.adminArticleNotFound);
    return article;
  };

  await app.register(fastifyCookie);
  await app.register(fastifyMultipart, {
    limits: { files: 1, fileSize: ARTICLE_RULES.imageMaxBytes, fields: 2, parts: 3 },
  });
  app.addHook('onSend', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
  });
  const { staffRoute } = options.console.staffRouting(app);
  staffRoute(newsAdminApi.articleList, EDITORS, 'news.list', async ({ body }) => ({
    data: await listAllArticles(db, body),
  }));

  staffRoute(newsAdminApi.articleDetail, EDITORS, 'news.detail', async ({ body }) => ({
    data: await mustFind(body.id),
    target: body.id,
  }));

  staffRoute(newsAdminApi.articleSave, EDITORS, 'news.save', async ({ body }) => {
    const before = body.id ? await mustFind(body.id) : undefined;
    const bodyHtml = sanitizeArticleHtml(body.bodyHtml);
    if (!textOf(bodyHtml) && !bodyHtml.includes('<img'))
      throw new AppError(ErrorCode.VALIDATION, TEXTS.bodyEmpty);
    if (await slugTaken(db, body.slug, body.id)) throw new AppError(ErrorCode.CONFLICT, TEXTS.slugTaken);
    if (body.coverId && !(await imageExists(db, body.coverId)))
      throw new AppError(ErrorCode.VALIDATION, TEXTS.coverNotFound);
    const fields = { ...body, bodyHtml };
    const now = news.now();
    const id = body.id ?? (await insertArticle(db, fields, now));
    if (body.id && !(await updateArticle(db, body.id, fields, now)))
      throw new AppError(ErrorCode.RESOURCE_NOT_FOUND, TEXTS.adminArticleNotFound);
    const after = await mustFind(id);
    if (after.status === 'published') news.cache.invalidate();
    return {
      data: after,
      message: TEXTS.saved,
      target: id,
      before: before ? auditView(before) : null,
      after: auditView(after),
      detail: { created: !body.id, sanitised: bodyHtml !== body.bodyHtml.trim() },
    };
  });

  for (const [endpoint, status, action, message] of [
    [newsAdminApi.articlePublish, 'published', 'news.publish', TEXTS.published],
    [newsAdminApi.articleUnpublish, 'draft', 'news.unpublish', TEXTS.unpublished],
  ] as const) {
    staffRoute(endpoint, EDITORS, action, async ({ body }) => {
      const before = await mustFind(body.id);
      await setArticleStatus(db, body.id, status, news.now());
      news.cache.invalidate();
      const after = await mustFind(body.id);
      return {
        data: after,
        message,
        target: after.slug,
        before: { status: before.status, publishedAt: before.publishedAt },
        after: { status: after.status, publishedAt: after.publishedAt },
      };
    });
  }
  staffRoute(newsAdminApi.imageUpload, EDITORS, 'news.image', async ({ request }) => {
    const image = await readImage(request);
    const stored = await storeNewsImage({ db, storage: news.storage }, image).catch((error) => {
      if (!(error instanceof ImageRejected)) throw error;
      if (error.message === 'too small')
        throw new AppError(ErrorCode.VALIDATION, TEXTS.imageTooSmall(ARTICLE_RULES.imageMinWidth));
      throw new AppError(ErrorCode.UNSUPPORTED_MEDIA_TYPE, TEXTS.imageType);
    });
    return {
      data: stored,
      message: TEXTS.imageUploaded,
      target: stored.id,
      detail: { bytes: image.length, widths: stored.srcset.split(', ').length },
    };
  });

  staffRoute(newsAdminApi.casePhotoList, EDITORS, 'casePhoto.list', async () => ({
    data: await listCasePhotos(db, false),
  }));

  staffRoute(newsAdminApi.casePhotoSave, EDITORS, 'casePhoto.save', async ({ body }) => {
    const before = body.id ? await findCasePhoto(db, body.id) : undefined;
    if (body.id && !before) throw new AppError(ErrorCode.RESOURCE_NOT_FOUND, TEXTS.casePhotoNotFound);
    if (!(await imageExists(db, body.imageId))) throw new AppError(ErrorCode.VALIDATION, TEXTS.imageNotFound);
    const id = await saveCasePhoto(db, body.id, body, news.now());
    const after = id ? await findCasePhoto(db, id) : undefined;
    if (!after) throw new AppError(ErrorCode.RESOURCE_NOT_FOUND, TEXTS.casePhotoNotFound);
    news.cache.invalidate();
    const view = (p: typeof after) => ({ ...p, image: p.image.id });
    return {
      data: after,
      message: TEXTS.casePhotoSaved,
      target: after.id,
      before: before ? view(before) : null,
      after: view(after),
    };
  });

  staffRoute(newsAdminApi.casePhotoDelete, EDITORS, 'casePhoto.delete', async ({ body }) => {
    const before = await findCasePhoto(db, body.id);
    if (!before || !(await deleteCasePhoto(db, body.id)))
      throw new AppError(ErrorCode.RESOURCE_NOT_FOUND, TEXTS.casePhotoNotFound);
    news.cache.invalidate();
    return {
      data: null,
      message: TEXTS.casePhotoDeleted,
      target: body.id,
      before: { ...before, image: before.image.id },
    };
  });
}

/** The one `file` part, whole (lib/upload.ts: the size cap and a broken form refused in Chinese). */
async function readImage(request: FastifyRequest): Promise<Buffer> {
  if (!request.isMultipart()) throw new AppError(ErrorCode.VALIDATION, TEXTS.imageRequired);
  const { file } = await readUpload(request, ARTICLE_RULES.imageMaxBytes / 1024 / 1024);
  if (!file || file.bytes.length === 0) throw new AppError(ErrorCode.VALIDATION, TEXTS.imageRequired);
  return file.bytes;
}
