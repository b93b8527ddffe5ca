import { ErrorCode, type ReportModel } from '@kyfw/contracts';
import type { ReductionKind } from '@kyfw/db';
import { AppError } from '../../lib/app-error.ts';
import { getReportJson } from '../check/check.service.ts';
import type { ReductionParagraph } from './reduction.repo.ts';
import { createReduction, isRewritable, type ReductionRuntime } from './reduction.service.ts';
import { TEXTS } from './reduction.texts.ts';

/**
 * The paragraphs of a check report's text, a target where a rewritable paragraph overlaps a
 * flagged passage (verbatim or paraphrase; quoted passages are cited and stay).
 */
export function flaggedParagraphs(model: Pick<ReportModel, 'text' | 'matches'>): ReductionParagraph[] {
  const flagged = model.matches.filter((m) => m.kind !== 'quoted');
  let at = 0;
  return model.text.split('\n').map((line, index) => {
    const start = at;
    const end = at + line.length;
    at = end + 1;
    const hit = flagged.some((m) => m.start < end && m.end > start);
    return { index, text: line, target: hit && isRewritable(line) };
  });
}

/**
 * /submitReport and /order/trans: one of the user's finished similarity-check reports becomes a
 * reduction of its flagged paragraphs only (the rest of the text stays as it was). `checkOrderId`
 * is the check's id as /freeCheck/* names it (orderId). Another user's check, an unfinished one
 * or one without flagged passages: a Chinese message, nothing is created.
 */
export async function reductionFromReport(
  rt: ReductionRuntime,
  input: { userId: string; kind: ReductionKind; checkOrderId: string },
  now: Date,
) {
  let json: string;
  try {
    json = await getReportJson(rt.check, input.userId, input.checkOrderId);
  } catch (error) {
    if (error instanceof AppError && error.code === ErrorCode.RESOURCE_NOT_FOUND)
      throw new AppError(ErrorCode.RESOURCE_NOT_FOUND, TEXTS.reportNotFound, { cause: error });
    if (error instanceof AppError && error.code === ErrorCode.CHECK_NOT_READY)
      throw new AppError(ErrorCode.REDUCTION_BAD_INPUT, TEXTS.reportNotReady, { cause: error });
    throw error;
  }
  const model = JSON.parse(json) as Partial<ReportModel>;
  if (!Array.isArray(model.matches) || typeof model.text !== 'string')
    throw new AppError(ErrorCode.REDUCTION_BAD_INPUT, TEXTS.reportNotSimilarity);
  const paragraphs = flaggedParagraphs({ text: model.text, matches: model.matches });
  if (!paragraphs.some((p) => p.target))
    throw new AppError(ErrorCode.REDUCTION_BAD_INPUT, TEXTS.reportNoFlagged);
  return createReduction(
    rt,
    {
      userId: input.userId,
      kind: input.kind,
      source: 'report',
      title: model.title,
      text: model.text,
      paragraphs,
      checkId: input.checkOrderId,
    },
    now,
  );
}
