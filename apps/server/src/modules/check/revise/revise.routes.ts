import { checkReviseApi, ok } from '@kyfw/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { route } from '../../../lib/route.ts';
import { attachment } from '../../../lib/upload.ts';
import type { CheckRuntime } from '../check.runtime.ts';
import { getReviseState, recheckParagraph, revisedDocx, saveVersion } from './revise.service.ts';

/** /freeCheck/revise/* (docs/api/check.md#revise-in-the-report): owner only, a finished similarity check. */
export function reviseRoutes(
  app: FastifyInstance,
  rt: CheckRuntime,
  /** The check routes' requireUser (the accounts module's, reached through check.routes.ts). */
  requireUser: (request: FastifyRequest) => Promise<{ userId: string }>,
): void {
  route(
    app,
    checkReviseApi.state,
    async ({ auth, body }) => ok(await getReviseState(rt, auth.userId, body.orderId)),
    {
      auth: requireUser,
    },
  );

  route(
    app,
    checkReviseApi.recheck,
    async ({ auth, body }) => ok(await recheckParagraph(rt, auth.userId, body)),
    { auth: requireUser },
  );

  route(
    app,
    checkReviseApi.saveVersion,
    async ({ auth, body }) => ok(await saveVersion(rt, auth.userId, body.orderId), '已保存为新版本'),
    { auth: requireUser },
  );

  route(
    app,
    checkReviseApi.download,
    async ({ auth, body, reply }) => {
      const file = await revisedDocx(rt, auth.userId, body);
      return reply
        .type('application/vnd.openxmlformats-officedocument.wordprocessingml.document')
        .header('content-disposition', attachment(file.fileName, 'revised.docx'))
        .send(file.bytes);
    },
    { auth: requireUser, alsoGet: true },
  );
}
