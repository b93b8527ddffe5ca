import { z } from 'zod';
import { endpoint, isoDate } from './endpoint.ts';
import { REVISE_RULES } from './form-rules.ts';

/**
 * Revise in the report (issue 24, decision 0040; docs/api/check.md#revise-in-the-report): a
 * finished similarity check's paper edited paragraph by paragraph, each edit re-checked at once
 * against the same library and collections and by the AIGC detector. The live figures are 参考:
 * a signed report of a revision is ordered like any other check.
 */

const orderId = z
  .string({ error: '订单不能为空' })
  .trim()
  .min(1, { error: '订单不能为空' })
  .max(64, { error: '订单格式错误' });

const paragraphIndex = z.coerce
  .number({ error: REVISE_RULES.paragraph })
  .int({ error: REVISE_RULES.paragraph })
  .min(0, { error: REVISE_RULES.paragraph })
  .max(1_000_000, { error: REVISE_RULES.paragraph });

/** One section (chapter) of the live figures, as the report's chapter table shows it. */
export const liveSectionSchema = z.object({
  index: z.number(),
  title: z.string(),
  chars: z.number(),
  copiedChars: z.number(),
  ratio: z.number(),
  ratioExcludingQuotes: z.number(),
});
export type LiveSection = z.output<typeof liveSectionSchema>;

/** The document's figures of a revision, computed by the full check's code (参考, not signed). */
export const liveFiguresSchema = z.object({
  ratio: z.number(),
  ratioExcludingQuotes: z.number(),
  maxSingleSourceRatio: z.number(),
  maxSingleSourceTitle: z.string().nullable(),
  copiedChars: z.number(),
  totalChars: z.number(),
  sourceCount: z.number(),
  /** The AIGC detector's index of the whole text, 0–100, and whether it is in the reliable range. */
  aigcScore: z.number(),
  aigcReliable: z.boolean(),
  sections: z.array(liveSectionSchema),
});
export type LiveFigures = z.output<typeof liveFiguresSchema>;

/** What the live re-checks left today. */
export const recheckLimitsSchema = z.object({
  perOrderPerDay: z.number(),
  perAccountPerDay: z.number(),
  orderLeft: z.number(),
  accountLeft: z.number(),
});

export const paragraphMarkSchema = z.object({
  /** UTF-16 offsets into the paragraph's text, end exclusive. */
  start: z.number(),
  end: z.number(),
  kind: z.enum(['verbatim', 'paraphrase', 'quoted']),
  sourceNo: z.number(),
  sourceTitle: z.string(),
  sourcePassage: z.object({ before: z.string(), text: z.string(), after: z.string() }),
});
export type ParagraphMark = z.output<typeof paragraphMarkSchema>;

/** One paragraph as re-checked. */
export const liveParagraphSchema = z.object({
  index: z.number(),
  text: z.string(),
  /** 字数 of the paragraph (whitespace not counted). */
  chars: z.number(),
  copiedChars: z.number(),
  /** Its own 文字复制比 (0–1): the characters under a mark / its characters. */
  rate: z.number(),
  /** The AIGC index of the detector's unit(s) covering it (0–100); null when it is not scored (heading, too short). */
  aigcScore: z.number().nullable(),
  marks: z.array(paragraphMarkSchema),
});
export type LiveParagraph = z.output<typeof liveParagraphSchema>;

export const revisionVersionSchema = z.object({
  versionNo: z.number(),
  createdAt: isoDate,
  /** Paragraph index -> its text in this version (others as checked). */
  edits: z.array(z.object({ index: z.number(), text: z.string() })),
  figures: liveFiguresSchema,
});
export type RevisionVersion = z.output<typeof revisionVersionSchema>;

export const reviseStateSchema = z.object({
  /** The working copy's edits (saved as they are re-checked) and its figures; null before the first edit. */
  draft: z
    .object({
      edits: z.array(z.object({ index: z.number(), text: z.string() })),
      figures: liveFiguresSchema,
      updatedAt: isoDate,
    })
    .nullable(),
  versions: z.array(revisionVersionSchema),
  limits: recheckLimitsSchema,
  /** The upload was a .docx: the download keeps its formatting and changes only edited paragraphs. */
  docxKept: z.boolean(),
});
export type ReviseState = z.output<typeof reviseStateSchema>;

export const recheckResultSchema = z.object({
  paragraph: liveParagraphSchema,
  figures: liveFiguresSchema,
  /** Indexes of the paragraphs edited in the working copy now. */
  edited: z.array(z.number()),
  limits: recheckLimitsSchema,
  /** Server time of the re-check in ms (comparison, figures, AIGC, saving). */
  serverMs: z.number(),
  /** Of it, the document's figures: the comparison, the report model and the AIGC detection (ms). */
  figuresMs: z.number(),
});
export type RecheckResult = z.output<typeof recheckResultSchema>;

export const checkReviseApi = {
  state: endpoint({
    path: '/freeCheck/revise/state',
    body: z.object({ orderId }),
    data: reviseStateSchema,
  }),
  /** Re-checks one paragraph with `text` (the checked text restores it) and saves the working copy. */
  recheck: endpoint({
    path: '/freeCheck/revise/recheck',
    body: z.object({
      orderId,
      index: paragraphIndex,
      text: z
        .string({ error: '请输入段落内容' })
        .max(REVISE_RULES.paragraphMaxChars, { error: REVISE_RULES.paragraphTooLong }),
    }),
    data: recheckResultSchema,
  }),
  /** Keeps the working copy as the next numbered version. */
  saveVersion: endpoint({
    path: '/freeCheck/revise/saveVersion',
    body: z.object({ orderId }),
    data: revisionVersionSchema,
  }),
  /** The revised paper as .docx: the working copy, or a saved version (versionNo). */
  download: endpoint({
    path: '/freeCheck/revise/download',
    body: z.object({
      orderId,
      versionNo: z.coerce.number().int().min(1).max(1000).optional(),
    }),
    data: 'file',
  }),
} as const;
