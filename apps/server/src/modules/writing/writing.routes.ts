import fastifyMultipart from '@fastify/multipart';
import { ErrorCode, ok, type searchReferenceBody, type WritingViewWire, writingApi } from '@kyfw/contracts';
import { ExtractError, extractDocument } from '@kyfw/simcheck/extract';
import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import { type QueuedView, queuedText, queuePlace, withQueuePlace } from '../../jobs/index.ts';
import { AppError } from '../../lib/app-error.ts';
import { route } from '../../lib/route.ts';
import { attachment, extractionHoldMs, extractionSignal } from '../../lib/upload.ts';
import type { UploadGuard } from '../accounts/index.ts';
import { requireUser } from '../accounts/index.ts';
import type { AiQuota } from '../llm/index.ts';
import { formatGbt7714 } from './references.ts';
import { renderWritingDocx } from './writing.docx.ts';
import type { Writing } from './writing.repo.ts';
import { orderUnlimitedRevisions, requestRevision } from './writing.revisions.ts';
import { searchLibrary } from './writing.search.ts';
import {
  analyseReferences,
  deleteWriting,
  endedByRefund,
  freeOutlinesLeft,
  generateAbstract,
  generateOutline,
  getWriting,
  listWritings,
  saveDraft,
  saveOutline,
  submitOrder,
  suggestTitles,
  type WritingRuntime,
  writingView,
} from './writing.service.ts';
import { FORMAT_TEMPLATES } from './writing.templates.ts';
import { AREA_NAMES, TEXTS } from './writing.texts.ts';

/** A task book is a few pages; 10 MB is plenty. */
const TASK_BOOK_MAX_BYTES = 10 * 1024 * 1024;
/** Parsing a task book, waiting for an extraction worker included. */
const TASK_BOOK_PARSE_MS = 30_000;

/** /aiWriting/* (spec §7; contracts in @kyfw/contracts writingApi; docs/api/writing.md). Every route needs a login. */
export async function writingRoutes(
  app: FastifyInstance,
  options: { rt: WritingRuntime; uploads: Pick<UploadGuard, 'rateLimit'>; quota: AiQuota },
): Promise<void> {
  const { rt, uploads, quota } = options;
  const { db, now } = rt;
  const sandbox = () => rt.llm.provider.kind === 'sandbox';
  const auth = { auth: requireUser };
  // A paid writing whose job waits for a worker says 排队中 and its place, not a percentage; so does
  // a section revision waiting for one.
  const queued = async <V extends QueuedView & { revision: WritingViewWire['revision'] }>(
    w: Writing,
    v: V,
  ) => {
    const view = await withQueuePlace(
      db,
      v,
      v.status === 'writing' && v.orderId ? `writing:${v.orderId}` : null,
    );
    const key = w.revision?.state === 'running' ? w.revision.queueKey : undefined;
    const place = key && view.revision ? await queuePlace(db, key) : null;
    if (!place || !view.revision) return view;
    return {
      ...view,
      revision: { ...view.revision, message: queuedText(place.ahead), queueAhead: place.ahead },
    };
  };
  app.addHook('onSend', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
  });

  route(
    app,
    writingApi.title,
    async ({ auth, body, request }) =>
      ok(
        await quota.free({ userId: auth.userId, ip: request.ip }, () => suggestTitles(rt, auth.userId, body)),
      ),
    auth,
  );

  route(
    app,
    writingApi.saveOrder,
    async ({ auth, body }) =>
      ok(await writingView(rt, await saveDraft(db, auth.userId, body, now()), sandbox())),
    auth,
  );

  route(
    app,
    writingApi.freeOutlineNumber,
    async ({ auth }) => ok({ free: await freeOutlinesLeft(db, auth.userId) }),
    auth,
  );

  route(
    app,
    writingApi.outline,
    async ({ auth, body, request }) =>
      ok({
        ...(await quota.free({ userId: auth.userId, ip: request.ip }, () =>
          generateOutline(rt, auth.userId, body.writingId, now()),
        )),
        sandbox: sandbox(),
      }),
    auth,
  );

  route(
    app,
    writingApi.combOutline,
    async ({ auth, body }) => ok(await saveOutline(db, auth.userId, body.writingId, body.outline, now())),
    auth,
  );

  route(
    app,
    writingApi.abstract,
    async ({ auth, body, request }) =>
      ok({
        ...(await quota.free({ userId: auth.userId, ip: request.ip }, () =>
          generateAbstract(rt, auth.userId, body.writingId, now()),
        )),
        sandbox: sandbox(),
      }),
    auth,
  );

  // The library's records (and the student's own references, with writingId) for the words; the
  // English search keeps the English records — none ship with the demo library, and it says so.
  const searchReferences =
    (english: boolean) =>
    async ({
      auth: { userId },
      body,
    }: {
      auth: { userId: string };
      body: z.output<typeof searchReferenceBody>;
    }) => {
      const supplied = body.writingId ? (await getWriting(db, userId, body.writingId)).sources : [];
      const found = await searchLibrary(rt, { ...body, english, supplied });
      return ok({
        list: found.list.map(({ abstract: _a, keywords: _k, ...s }) => ({
          ...s,
          formatted: formatGbt7714(s),
        })),
        total: found.total,
        message:
          found.total > 0 ? TEXTS.searchFound(found.total) : english ? TEXTS.enNotFound : TEXTS.noSources,
      });
    };
  route(app, writingApi.searchReference, searchReferences(false), auth);
  route(app, writingApi.searchEnReference, searchReferences(true), auth);

  route(
    app,
    writingApi.analysisReference,
    async ({ auth, body }) =>
      ok({ list: await analyseReferences(db, auth.userId, body.text, body.writingId, now()) }),
    auth,
  );

  route(
    app,
    writingApi.formatTemplate,
    async () =>
      ok({ list: FORMAT_TEMPLATES.map(({ id, name, description }) => ({ id, name, description })) }),
    auth,
  );

  // Ordering the full text: /submitOrder with an outline; /outlineByPay without one (the paid job
  // writes the outline first). Payment also through /aiWriting/freeCheckQrPayCode and
  // /orderPayStatus {orderId} (orders module).
  for (const e of [writingApi.submitOrder, writingApi.outlineByPay]) {
    route(
      app,
      e,
      async ({ auth, body }) => ok(await submitOrder(rt, auth.userId, body.writingId, now())),
      auth,
    );
  }

  route(
    app,
    writingApi.payment,
    async ({ auth, body }) => {
      const order = await submitOrder(rt, auth.userId, body.writingId, now());
      return ok(
        await rt.orders.startPayment({
          userId: auth.userId,
          orderId: order.orderId,
          payType: body.payType,
          serviceTypes: ['ai_writing'],
        }),
      );
    },
    auth,
  );

  route(
    app,
    writingApi.queryPayStatus,
    async ({ auth, body }) => {
      const w = await getWriting(db, auth.userId, body.writingId);
      if (!w.orderId) throw new AppError(ErrorCode.WRITING_NOT_READY, TEXTS.outlineRequired);
      const status = await rt.orders.getPayStatus(auth.userId, w.orderId, {
        serviceTypes: ['ai_writing'],
      });
      return ok({ ...status, payStatus: status.payStatus === 1 ? (1 as const) : (0 as const) });
    },
    auth,
  );

  for (const e of [writingApi.query, writingApi.orderInfo]) {
    route(
      app,
      e,
      async ({ auth, body }) => {
        const w = await getWriting(db, auth.userId, body.writingId);
        return ok(await queued(w, await writingView(rt, w, sandbox())));
      },
      auth,
    );
  }

  route(
    app,
    writingApi.list,
    async ({ auth }) =>
      ok({
        list: await Promise.all(
          (await listWritings(db, auth.userId)).map(async (w) =>
            queued(w, await writingView(rt, w, sandbox())),
          ),
        ),
      }),
    auth,
  );

  route(
    app,
    writingApi.fullText,
    async ({ auth, body }) => {
      const w = await getWriting(db, auth.userId, body.writingId);
      return ok({ ...(await queued(w, await writingView(rt, w, sandbox()))), sections: w.sections });
    },
    auth,
  );

  route(
    app,
    writingApi.download,
    async ({ auth, body, reply }) => {
      const w = await getWriting(db, auth.userId, body.writingId);
      if (endedByRefund(w)) throw new AppError(ErrorCode.WRITING_NOT_READY, TEXTS.refundEnded);
      if (w.status !== 'done') throw new AppError(ErrorCode.WRITING_NOT_READY, TEXTS.notDone(w.progress));
      const { bytes } = await renderWritingDocx(w, { sandbox: sandbox(), now: now() });
      const name = `${(w.title ?? w.topic).replace(/[\\/:*?"<>|]/g, '').slice(0, 60)}-${AREA_NAMES[w.area]}.docx`;
      return reply
        .type('application/vnd.openxmlformats-officedocument.wordprocessingml.document')
        .header('content-disposition', attachment(name, 'ai-writing.docx'))
        .send(bytes);
    },
    auth,
  );

  route(
    app,
    writingApi.delOrder,
    async ({ auth, body }) => {
      await deleteWriting(rt, auth.userId, body.writingId, now());
      return ok(null);
    },
    auth,
  );

  // A task book or school template: its text becomes the form's requirements (the student edits it).
  await app.register(fastifyMultipart, {
    limits: { fileSize: TASK_BOOK_MAX_BYTES, files: 1, fields: 5, parts: 6 },
  });
  route(
    app,
    writingApi.recognitionFile,
    async ({ request, reply }) => {
      const part = await request.file().catch(() => undefined);
      if (!part) throw new AppError(ErrorCode.VALIDATION, TEXTS.taskBookMissing);
      const bytes = await part.toBuffer().catch(() => null);
      if (!bytes || part.file.truncated) throw new AppError(ErrorCode.VALIDATION, TEXTS.taskBookTooLarge);
      try {
        const doc = await extractDocument(bytes, {
          fileName: part.filename,
          limits: { maxBytes: TASK_BOOK_MAX_BYTES, timeoutMs: TASK_BOOK_PARSE_MS },
          signal: extractionSignal(request, reply, extractionHoldMs(TASK_BOOK_PARSE_MS)),
        });
        const text = doc.text
          .replace(/[ \t]+/g, ' ')
          .replace(/\n{2,}/g, '\n')
          .trim();
        return ok({
          requirements: text.slice(0, 2000),
          truncated: text.length > 2000,
          fileName: part.filename ?? '',
        });
      } catch (error) {
        if (error instanceof ExtractError)
          throw new AppError(ErrorCode.VALIDATION, error.message, { cause: error });
        throw error;
      }
    },
    // Parsed in the extraction pool like every upload: per client and minute.
    { ...auth, config: { rateLimit: uploads.rateLimit } },
  );

  route(
    app,
    writingApi.updateOrder,
    async ({ auth, body }) => {
      const w = await requestRevision(rt, auth.userId, body, now());
      return ok(await queued(w, await writingView(rt, w, sandbox())));
    },
    auth,
  );

  route(
    app,
    writingApi.unlimitedRevisionsPayment,
    async ({ auth, body }) => ok(await orderUnlimitedRevisions(rt, auth.userId, body.writingId)),
    auth,
  );
}
