import fastifyCookie from '@fastify/cookie';
import fastifyMultipart from '@fastify/multipart';
import {
  consoleLibraryApi,
  ErrorCode,
  LIBRARY_IMPORT_COLLECTIONS,
  LIBRARY_IMPORT_RULES,
  ok,
  type StaffRoleName,
} from '@kyfw/contracts';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { AppError } from '../../lib/app-error.ts';
import { route } from '../../lib/route.ts';
import { readUpload } from '../../lib/upload.ts';
import { parseWith } from '../../lib/validate.ts';
import type { ConsoleModuleService } from '../console/index.ts';
import {
  type LibraryAdminRuntime,
  libraryStats,
  listLibraryImports,
  removeDocument,
  searchLibrary,
  startImport,
} from './library.service.ts';

/**
 * Who may read the library screen (statistics, imports, search, the users' consented papers):
 * admin, and support, which reads users and orders read-only and answers users' questions about
 * what their paper was compared with. Importing and removing: admin only. Fulfilment, finance and
 * editor have no business here (docs/api/operator.md).
 */
export const LIBRARY_READ: readonly StaffRoleName[] = ['admin', 'support'];
export const LIBRARY_WRITE: readonly StaffRoleName[] = ['admin'];

const importFields = z.object({
  collection: z.enum(LIBRARY_IMPORT_COLLECTIONS, { error: LIBRARY_IMPORT_RULES.collectionRequired }),
});

/** /admin/library/* (docs/api/operator.md, 比对库): the console's staff guard; every action audited. */
export async function libraryRoutes(
  app: FastifyInstance,
  options: { rt: LibraryAdminRuntime; console: ConsoleModuleService },
): Promise<void> {
  const { rt } = options;
  await app.register(fastifyCookie);
  await app.register(fastifyMultipart, {
    limits: { fileSize: LIBRARY_IMPORT_RULES.maxBytes, files: 1, fields: 3, fieldSize: 1024, parts: 4 },
  });
  app.addHook('onSend', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
  });
  const { staffRoute, requireStaff } = options.console.staffRouting(app);

  staffRoute(consoleLibraryApi.stats, LIBRARY_READ, 'library.stats', async () => ({
    data: await libraryStats(rt),
  }));

  // The page polls this while an import runs: a read, not written to the audit log each time (a
  // caller without the role is refused and recorded by requireStaff).
  route(app, consoleLibraryApi.imports, async () => ok({ list: await listLibraryImports(rt) }), {
    auth: requireStaff(LIBRARY_READ, 'library.imports'),
  });

  staffRoute(consoleLibraryApi.importFile, LIBRARY_WRITE, 'library.import', async ({ request, session }) => {
    if (!request.isMultipart()) throw new AppError(ErrorCode.VALIDATION, LIBRARY_IMPORT_RULES.fileRequired);
    const upload = await readUpload(request, LIBRARY_IMPORT_RULES.maxBytes / 1024 / 1024);
    const { collection } = parseWith(importFields, upload.fields);
    if (!upload.file || upload.file.fileName === '')
      throw new AppError(ErrorCode.VALIDATION, LIBRARY_IMPORT_RULES.fileRequired);
    const started = await startImport(rt, {
      fileName: upload.file.fileName,
      bytes: upload.file.bytes,
      collection,
      staff: { staffId: session.staffId, username: session.username },
    });
    return {
      data: started,
      message: '已开始导入',
      target: started.importId,
      after: { fileName: started.fileName, bytes: started.fileBytes, collection },
    };
  });

  staffRoute(consoleLibraryApi.search, LIBRARY_READ, 'library.search', async ({ body }) => ({
    data: await searchLibrary(rt, body),
    detail: body,
  }));

  staffRoute(consoleLibraryApi.remove, LIBRARY_WRITE, 'library.remove', async ({ body }) => {
    const removed = await removeDocument(rt, body.id);
    return { data: null, message: '已从比对库删除', target: body.id, before: removed, after: null };
  });
}
