import { z } from 'zod';
import { defineJob } from '../../jobs/index.ts';
import { defineModule } from '../types.ts';
import { libraryRoutes } from './library.routes.ts';
import { LIBRARY_IMPORT_JOB, type LibraryAdminRuntime, runImportJob } from './library.service.ts';

export type LibraryModuleService = LibraryAdminRuntime;

/** An operator's import (library_imports row): checked, then added through the CLI's import. */
export const libraryImportJob = defineJob({
  name: LIBRARY_IMPORT_JOB,
  maxAttempts: 3,
  payloadSchema: z.object({ importId: z.uuid() }),
  handler: (ctx) => runImportJob(ctx.services.library, ctx, ctx.payload.importId),
});

/**
 * The console's comparison-library screen (issue 15; docs/api/operator.md, 比对库): statistics by
 * collection, imports as durable jobs with progress, search, removal, the papers users added by
 * consent. It works on the check module's library and storage and uses the console's staff guard
 * and audit, so it is listed after both.
 */
export const libraryModule = defineModule({
  name: 'library',
  createService({ config, db, logger, clock, services }): LibraryModuleService {
    return { db, check: services.check, config, logger, now: clock };
  },
  async routes(app, { library, console }) {
    await app.register(libraryRoutes, { rt: library, console });
  },
  jobs: [libraryImportJob],
});
