import {
  ErrorCode,
  REVISE_RULES,
  type RecheckResult,
  type ReviseState,
  type RevisionVersion,
} from '@kyfw/contracts';
import { countChars } from '@kyfw/simcheck';
import { AppError } from '../../../lib/app-error.ts';
import { editDocxInPlace } from '../../../lib/docx/edit-in-place.ts';
import { renderParagraphsDocx } from '../../../lib/docx/paragraphs-docx.ts';
import type { CheckRecord } from '../check.repo.ts';
import type { CheckRuntime } from '../check.runtime.ts';
import { loadText } from '../check-run.ts';
import { getOwnCheck } from '../own-check.ts';
import { safeFileStem } from '../report/render.ts';
import type { StoredText } from '../upload.service.ts';
import {
  countRecheck,
  findDraft,
  findVersion,
  insertVersionFromDraft,
  listVersions,
  type RevisionRecord,
  recheckUse,
  saveDraft,
} from './revise.repo.ts';
import { REVISE_TEXTS } from './revise.texts.ts';
import { liveFiguresOf, liveParagraphOf, measureRevision } from './revise-measure.ts';
import { applyEdits, cleanParagraph, type Edits, normaliseEdits } from './revised-text.ts';

/**
 * Revise in the report (issue 24, decision 0040): the use cases behind /freeCheck/revise/*. A
 * finished similarity check's paper, its paragraphs edited one at a time: each edit is re-checked
 * by the full check's code (revise-measure.ts) and the working copy saved; 保存版本 keeps it as a
 * numbered version; the revised paper downloads as .docx (the upload's .docx edited in place).
 */

/** The checked texts of recent revisions, by check (they never change once the check is done). */
const TEXT_CACHE_SIZE = 16;
const textCache = new Map<string, StoredText>();

async function checkedText(rt: CheckRuntime, check: CheckRecord): Promise<StoredText> {
  const cached = textCache.get(check.id);
  if (cached) {
    textCache.delete(check.id);
    textCache.set(check.id, cached);
    return cached;
  }
  if (!check.textKey && !check.fileKey)
    throw new AppError(ErrorCode.RESOURCE_NOT_FOUND, REVISE_TEXTS.textGone);
  const stored = await loadText(rt, check).catch(() => {
    throw new AppError(ErrorCode.RESOURCE_NOT_FOUND, REVISE_TEXTS.textGone);
  });
  textCache.set(check.id, stored);
  if (textCache.size > TEXT_CACHE_SIZE) textCache.delete(textCache.keys().next().value!);
  return stored;
}

/** The caller's finished similarity check, or the reason it cannot be revised. */
async function revisableCheck(rt: CheckRuntime, userId: string, orderId: string): Promise<CheckRecord> {
  const check = await getOwnCheck(rt, userId, orderId);
  if (check.kind !== 'similarity') throw new AppError(ErrorCode.VALIDATION, REVISE_TEXTS.onlySimilarity);
  if (check.status !== 'done') throw new AppError(ErrorCode.CHECK_NOT_READY, REVISE_TEXTS.notDone);
  return check;
}

/** The China-time day a re-check is counted on (the limits reset at 00:00 China time). */
export function chinaDay(now: Date): string {
  return new Date(now.getTime() + 8 * 3600_000).toISOString().slice(0, 10);
}

function limitsOf(rt: CheckRuntime, used: { orderUsed: number; accountUsed: number }) {
  const { recheckPerOrderPerDay: perOrder, recheckPerAccountPerDay: perAccount } = rt.config;
  const left = (max: number, usedN: number) => (max === 0 ? 1_000_000 : Math.max(0, max - usedN));
  return {
    perOrderPerDay: perOrder,
    perAccountPerDay: perAccount,
    orderLeft: left(perOrder, used.orderUsed),
    accountLeft: left(perAccount, used.accountUsed),
  };
}

const editList = (edits: Edits) => [...edits].map(([index, text]) => ({ index, text }));

function versionView(v: RevisionRecord): RevisionVersion {
  return {
    versionNo: v.versionNo ?? 0,
    createdAt: v.createdAt.toISOString(),
    edits: editList(v.edits),
    figures: v.figures,
  };
}

export async function getReviseState(
  rt: CheckRuntime,
  userId: string,
  orderId: string,
): Promise<ReviseState> {
  const check = await revisableCheck(rt, userId, orderId);
  const [draft, versions, used] = await Promise.all([
    findDraft(rt.db, check.id),
    listVersions(rt.db, check.id),
    recheckUse(rt.db, { checkId: check.id, userId, day: chinaDay(rt.now()) }),
  ]);
  return {
    draft: draft
      ? { edits: editList(draft.edits), figures: draft.figures, updatedAt: draft.updatedAt.toISOString() }
      : null,
    versions: versions.map(versionView),
    limits: limitsOf(rt, used),
    docxKept: check.fileFormat === 'docx' && check.fileKey !== null,
  };
}

/**
 * One paragraph re-checked with its new text (the checked text restores it): the working copy gets
 * the edit, the whole revised text is measured by the full check's code, and the paragraph's marks,
 * rate and AIGC index come back with the document's figures. Counted against the day's limits
 * before anything runs; refused (and nothing changed) past them, for a paragraph that does not
 * exist, or when the revised text is over the goods' limit like an upload would be.
 */
export async function recheckParagraph(
  rt: CheckRuntime,
  userId: string,
  input: { orderId: string; index: number; text: string },
): Promise<RecheckResult> {
  const started = performance.now();
  const check = await revisableCheck(rt, userId, input.orderId);
  const stored = await checkedText(rt, check);
  const lineCount = stored.text.split('\n').length;
  if (input.index >= lineCount) throw new AppError(ErrorCode.VALIDATION, REVISE_TEXTS.noParagraph);
  const draft = await findDraft(rt.db, check.id);
  const edits = new Map(draft?.edits ?? []);
  edits.set(input.index, cleanParagraph(input.text));
  const normalised = normaliseEdits(stored.text, edits);
  const revised = applyEdits(stored, normalised);
  const chars = countChars(revised.text);
  const goods = await rt.orders.getGoods(check.goodsId);
  if (goods && chars > goods.maxQuantity)
    throw new AppError(ErrorCode.QUANTITY_OUT_OF_RANGE, REVISE_TEXTS.tooManyChars(chars, goods.maxQuantity));

  const counted = await countRecheck(rt.db, {
    checkId: check.id,
    userId,
    day: chinaDay(rt.now()),
    perOrder: rt.config.recheckPerOrderPerDay,
    perAccount: rt.config.recheckPerAccountPerDay,
  });
  if (!counted.ok) {
    throw new AppError(
      ErrorCode.CHECK_RECHECK_LIMIT,
      counted.limit === 'order'
        ? REVISE_TEXTS.orderLimit(rt.config.recheckPerOrderPerDay)
        : REVISE_TEXTS.accountLimit(rt.config.recheckPerAccountPerDay),
    );
  }
  const measuring = performance.now();
  const measured = await measureRevision(rt, check, revised);
  const figuresMs = Math.round(performance.now() - measuring);
  const figures = liveFiguresOf(measured);
  await saveDraft(rt.db, { checkId: check.id, userId, edits: normalised, figures, chars, now: rt.now() });
  return {
    paragraph: liveParagraphOf(measured, input.index, revised.ranges[input.index]!),
    figures,
    edited: [...normalised.keys()],
    limits: limitsOf(rt, counted),
    serverMs: Math.round(performance.now() - started),
    figuresMs,
  };
}

/** 保存版本: the working copy becomes the next numbered version (at most REVISE_RULES.maxVersions). */
export async function saveVersion(
  rt: CheckRuntime,
  userId: string,
  orderId: string,
): Promise<RevisionVersion> {
  const check = await revisableCheck(rt, userId, orderId);
  const draft = await findDraft(rt.db, check.id);
  if (!draft || draft.edits.size === 0) throw new AppError(ErrorCode.VALIDATION, REVISE_TEXTS.noDraft);
  const version = await insertVersionFromDraft(
    rt.db,
    check.id,
    draft,
    userId,
    REVISE_RULES.maxVersions,
    rt.now(),
  );
  if (!version)
    throw new AppError(ErrorCode.VALIDATION, REVISE_TEXTS.tooManyVersions(REVISE_RULES.maxVersions));
  return versionView(version);
}

/**
 * The revised paper as .docx: the working copy, or version `versionNo`. An uploaded .docx is
 * edited in place (lib/docx/edit-in-place.ts, the 降重 download's machinery: only the edited
 * paragraphs change, headings, numbering, tables, images and styles stay); any other upload, or a
 * .docx whose paragraph cannot be found, becomes a new .docx of the revised text (saying so).
 */
export async function revisedDocx(
  rt: CheckRuntime,
  userId: string,
  input: { orderId: string; versionNo?: number },
): Promise<{ bytes: Uint8Array; fileName: string }> {
  const check = await revisableCheck(rt, userId, input.orderId);
  const revision =
    input.versionNo === undefined
      ? await findDraft(rt.db, check.id)
      : await findVersion(rt.db, check.id, input.versionNo);
  if (input.versionNo !== undefined && !revision)
    throw new AppError(ErrorCode.RESOURCE_NOT_FOUND, REVISE_TEXTS.noVersion);
  const stored = await checkedText(rt, check);
  const edits = normaliseEdits(stored.text, revision?.edits ?? new Map());
  const lines = stored.text.split('\n');
  let bytes: Uint8Array | undefined;
  let formatLost = false;
  if (check.fileFormat === 'docx' && check.fileKey) {
    const original = new Uint8Array(await rt.storage.get(check.fileKey));
    bytes = editDocxInPlace(
      original,
      [...edits].map(([i, after]) => ({ before: lines[i] ?? '', after })),
    );
    formatLost = bytes === undefined;
  }
  bytes ??= await renderParagraphsDocx({
    title: check.title,
    note: formatLost ? `${REVISE_TEXTS.docxNote} ${REVISE_TEXTS.formatLost}` : REVISE_TEXTS.docxNote,
    lines: applyEdits(stored, edits).text.split('\n'),
  });
  return { bytes, fileName: REVISE_TEXTS.fileName(safeFileStem(check.title), input.versionNo ?? null) };
}
