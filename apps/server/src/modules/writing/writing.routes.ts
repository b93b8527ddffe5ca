import { ErrorCode, ok } from '@kyfw/contracts';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../../lib/app-error.ts';
import { parseBody } from '../../lib/validate.ts';
import { requireUser } from '../accounts/auth.ts';
import { formatGbt7714 } from './references.ts';
import { renderWritingDocx } from './writing.docx.ts';
import {
  analysisReferenceBody,
  combOutlineBody,
  payBody,
  saveOrderBody,
  searchReferenceBody,
  titleBody,
  writingIdBody,
} from './writing.schemas.ts';
import {
  analyseReferences,
  deleteWriting,
  freeOutlinesLeft,
  generateAbstract,
  generateOutline,
  getWriting,
  listWritings,
  saveDraft,
  saveOutline,
  searchLibrary,
  submitOrder,
  suggestTitles,
  toWritingView,
  type WritingRuntime,
} from './writing.service.ts';
import { FORMAT_TEMPLATES } from './writing.templates.ts';
import { AREA_NAMES, TEXTS } from './writing.texts.ts';

function attachment(fileName: string, asciiFallback: string): string {
  return `attachment; filename="${asciiFallback}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}

/** /aiWriting/* (spec §7; docs/api/writing.md). Every route needs a login. */
export async function writingRoutes(app: FastifyInstance, options: { rt: WritingRuntime }): Promise<void> {
  const { rt } = options;
  const { now } = rt;
  const db = () => rt.db;
  const sandbox = () => rt.llm.provider.kind === 'sandbox';
  app.addHook('onSend', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
  });

  app.post('/aiWriting/title', async (request) => {
    const auth = await requireUser(request);
    const body = parseBody(request, titleBody);
    return ok(await suggestTitles(rt, auth.userId, body));
  });

  app.post('/aiWriting/saveOrder', async (request) => {
    const auth = await requireUser(request);
    const body = parseBody(request, saveOrderBody);
    return ok(toWritingView(await saveDraft(db(), auth.userId, body, now()), { sandbox: sandbox() }));
  });

  app.post('/aiWriting/freeOutlineNumber', async (request) => {
    const auth = await requireUser(request);
    return ok({ free: await freeOutlinesLeft(db(), auth.userId) });
  });

  app.post('/aiWriting/outline', async (request) => {
    const auth = await requireUser(request);
    const body = parseBody(request, writingIdBody);
    return ok({ ...(await generateOutline(rt, auth.userId, body.writingId, now())), sandbox: sandbox() });
  });

  app.post('/aiWriting/combOutline', async (request) => {
    const auth = await requireUser(request);
    const body = parseBody(request, combOutlineBody);
    return ok(await saveOutline(db(), auth.userId, body.writingId, body.outline, now()));
  });

  app.post('/aiWriting/abstract', async (request) => {
    const auth = await requireUser(request);
    const body = parseBody(request, writingIdBody);
    return ok({ ...(await generateAbstract(rt, auth.userId, body.writingId, now())), sandbox: sandbox() });
  });

  app.post('/aiWriting/searchReference', async (request) => {
    await requireUser(request);
    const body = parseBody(request, searchReferenceBody);
    const found = await searchLibrary(rt, body.keyword, body.limit);
    return ok({
      list: found.map((s) => ({ ...s, formatted: formatGbt7714(s) })),
      message: found.length === 0 ? TEXTS.noSources : null,
    });
  });

  app.post('/aiWriting/searchEnReference', async (request) => {
    await requireUser(request);
    parseBody(request, searchReferenceBody);
    // The demo library holds Chinese records only; say so rather than invent English ones.
    return ok({ list: [], message: TEXTS.enLibraryEmpty });
  });

  app.post('/aiWriting/analysisReference', async (request) => {
    const auth = await requireUser(request);
    const body = parseBody(request, analysisReferenceBody);
    return ok({ list: await analyseReferences(db(), auth.userId, body.text, body.writingId, now()) });
  });

  app.post('/aiWriting/formatTemplate', async (request) => {
    await requireUser(request);
    return ok({ list: FORMAT_TEMPLATES.map(({ id, name, description }) => ({ id, name, description })) });
  });

  // Ordering the full text: /submitOrder with an outline; /outlineByPay without one (the paid job
  // writes the outline first). Payment: /aiWriting/freeCheckQrPayCode and /orderPayStatus (orders module).
  for (const path of ['/aiWriting/submitOrder', '/aiWriting/outlineByPay']) {
    app.post(path, async (request) => {
      const auth = await requireUser(request);
      const body = parseBody(request, writingIdBody);
      return ok(await submitOrder(rt, auth.userId, body.writingId, now()));
    });
  }

  app.post('/aiWriting/payment', async (request) => {
    const auth = await requireUser(request);
    const body = parseBody(request, payBody);
    const order = await submitOrder(rt, auth.userId, body.writingId, now());
    const qr = await rt.orders.startPayment({
      userId: auth.userId,
      orderId: order.orderId,
      payType: body.payType,
      serviceTypes: ['ai_writing'],
    });
    return ok(qr);
  });

  app.post('/aiWriting/queryPayStatus', async (request) => {
    const auth = await requireUser(request);
    const body = parseBody(request, writingIdBody);
    const w = await getWriting(db(), auth.userId, body.writingId);
    if (!w.orderId) throw new AppError(ErrorCode.WRITING_NOT_READY, TEXTS.outlineRequired);
    return ok(await rt.orders.getPayStatus(auth.userId, w.orderId, { serviceTypes: ['ai_writing'] }));
  });

  for (const path of ['/aiWriting/query', '/aiWriting/orderInfo']) {
    app.post(path, async (request) => {
      const auth = await requireUser(request);
      const body = parseBody(request, writingIdBody);
      return ok(toWritingView(await getWriting(db(), auth.userId, body.writingId), { sandbox: sandbox() }));
    });
  }

  app.post('/aiWriting/list', async (request) => {
    const auth = await requireUser(request);
    const list = await listWritings(db(), auth.userId);
    return ok({ list: list.map((w) => toWritingView(w, { sandbox: sandbox() })) });
  });

  app.post('/aiWriting/fullText', async (request) => {
    const auth = await requireUser(request);
    const body = parseBody(request, writingIdBody);
    const w = await getWriting(db(), auth.userId, body.writingId);
    return ok({ ...toWritingView(w, { sandbox: sandbox() }), sections: w.sections });
  });

  app.post('/aiWriting/download', async (request, reply) => {
    const auth = await requireUser(request);
    const body = parseBody(request, writingIdBody);
    const w = await getWriting(db(), auth.userId, body.writingId);
    if (w.status !== 'done') throw new AppError(ErrorCode.WRITING_NOT_READY, TEXTS.notDone(w.progress));
    const bytes = await renderWritingDocx(w, { sandbox: sandbox(), now: now() });
    const name = `${(w.title ?? w.topic).replace(/[\\/:*?"<>|]/g, '').slice(0, 60)}-${AREA_NAMES[w.area]}.docx`;
    return reply
      .type('application/vnd.openxmlformats-officedocument.wordprocessingml.document')
      .header('content-disposition', attachment(name, 'ai-writing.docx'))
      .send(bytes);
  });

  app.post('/aiWriting/delOrder', async (request) => {
    const auth = await requireUser(request);
    const body = parseBody(request, writingIdBody);
    await deleteWriting(rt, auth.userId, body.writingId, now());
    return ok(null);
  });

  // Not built yet: a clear answer instead of a missing route.
  for (const path of [
    '/aiWriting/recognitionFile',
    '/aiWriting/updateOrder',
    '/aiWriting/unlimitedRevisions/payment',
  ]) {
    app.post(path, async (request) => {
      await requireUser(request);
      throw new AppError(ErrorCode.WRITING_NOT_READY, '该功能暂未开放');
    });
  }
}
