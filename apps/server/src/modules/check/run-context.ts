import { z } from 'zod';
import type { JobContext } from '../../jobs/job-definition.ts';
import { type CheckRecord, setStage } from './check.repo.ts';
import type { CheckRuntime } from './check.runtime.ts';
import { CHECK_STAGE_TEXTS } from './check.texts.ts';

/** What the check job's steps share: its payload, the stage/progress writer, the stop signal. */

export const payloadSchema = z.object({ checkId: z.uuid() });
export type Payload = z.infer<typeof payloadSchema>;

/**
 * The check is no longer this run's: it was stopped while the run was under way (its account was
 * deleted, failure.service.ts stopChecksOfErasedAccount). The run ends without a report.
 */
export class CheckStoppedError extends Error {
  override readonly name = 'CheckStoppedError';
}

export async function progress(
  rt: CheckRuntime,
  ctx: JobContext<Payload>,
  check: CheckRecord,
  stage: 'parsing' | 'comparing' | 'detecting' | 'reporting',
  percent: number,
) {
  if (!(await setStage(rt.db, check.id, stage, percent, rt.now()))) throw new CheckStoppedError();
  await ctx.reportProgress(percent, CHECK_STAGE_TEXTS[stage]);
  if (ctx.signal.aborted) throw ctx.signal.reason ?? new Error('aborted');
}
