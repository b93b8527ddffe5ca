import type { Database, Kysely, Selectable, WritingArea, WritingStatus, WritingsTable } from '@kyfw/db';
import { updateColumns } from '../../lib/update-columns.ts';
import type { Source } from './references.ts';
import type { FigureSpec } from './writing.figure.ts';
import type { AbstractValue, OutlineItem } from './writing.schemas.ts';

export type WritingRow = Selectable<WritingsTable>;

export interface WrittenSection {
  /** '1', '1.2', '1.2.3': the item's place in the outline. */
  path: string;
  heading: string;
  level: number;
  text: string;
  /** Citation numbers the validator removed (they pointed to no given source). */
  removedCitations: number;
  /**
   * The chart of an item that asks for a picture, drawn from numbers this text gives
   * (writing.figure.ts); null or absent: the .docx shows the placeholder box.
   */
  figure?: FigureSpec | null;
}

/** The section revision under way, or the last one that failed (its message says so). */
export interface SectionRevision {
  path: string;
  instruction: string;
  /** It used one of the draft's free revisions (given back if it fails). */
  free: boolean;
  state: 'running' | 'failed';
  message: string | null;
  /** The dedupe key of its job (revisions queued before it was kept have none): where it waits. */
  queueKey?: string;
}

export interface Writing {
  id: string;
  userId: string;
  area: WritingArea;
  topic: string;
  title: string | null;
  discipline: string;
  degree: string;
  language: 'zh' | 'en';
  targetWords: number;
  requirements: string;
  templateId: string;
  outline: OutlineItem[] | null;
  abstract: AbstractValue | null;
  sources: Source[];
  sections: WrittenSection[];
  orderId: string | null;
  status: WritingStatus;
  progress: number;
  failureReason: string | null;
  freeOutline: boolean;
  outlinesGenerated: number;
  revisionsUsed: number;
  revisionsOrderId: string | null;
  unlimitedRevisions: boolean;
  revision: SectionRevision | null;
  createdAt: Date;
  updatedAt: Date;
  finishedAt: Date | null;
  hiddenAt: Date | null;
}

function parsed<T>(value: unknown, fallback: T): T {
  if (value === null || value === undefined) return fallback;
  return (typeof value === 'string' ? JSON.parse(value) : value) as T;
}

export function toWriting(row: WritingRow): Writing {
  return {
    id: row.id,
    userId: row.user_id,
    area: row.area,
    topic: row.topic,
    title: row.title,
    discipline: row.discipline,
    degree: row.degree,
    language: row.language,
    targetWords: row.target_words,
    requirements: row.requirements,
    templateId: row.template_id,
    outline: parsed<OutlineItem[] | null>(row.outline, null),
    abstract: parsed<AbstractValue | null>(row.abstract, null),
    sources: parsed<Source[]>(row.sources, []),
    sections: parsed<WrittenSection[]>(row.sections, []),
    orderId: row.order_id,
    status: row.status,
    progress: row.progress,
    failureReason: row.failure_reason,
    freeOutline: row.free_outline,
    outlinesGenerated: row.outlines_generated,
    revisionsUsed: row.revisions_used,
    revisionsOrderId: row.revisions_order_id,
    unlimitedRevisions: row.unlimited_revisions,
    revision: parsed<SectionRevision | null>(row.revision, null),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    finishedAt: row.finished_at,
    hiddenAt: row.hidden_at,
  };
}

export async function insertWriting(
  db: Kysely<Database>,
  values: {
    userId: string;
    area: Writing['area'];
    topic: string;
    title: string;
    discipline: string;
    degree: string;
    language: 'zh' | 'en';
    targetWords: number;
    requirements: string;
    templateId: string;
    now: Date;
  },
): Promise<Writing> {
  const row = await db
    .insertInto('writings')
    .values({
      user_id: values.userId,
      area: values.area,
      topic: values.topic,
      title: values.title,
      discipline: values.discipline,
      degree: values.degree,
      language: values.language,
      target_words: values.targetWords,
      requirements: values.requirements,
      template_id: values.templateId,
      created_at: values.now,
      updated_at: values.now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return toWriting(row);
}

/** The user's own writing (not deleted); undefined for a missing one or another user's. */
export async function findWritingOfUser(
  db: Kysely<Database>,
  userId: string,
  id: string,
  options: { forUpdate?: boolean } = {},
): Promise<Writing | undefined> {
  let query = db
    .selectFrom('writings')
    .selectAll()
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .where('hidden_at', 'is', null);
  if (options.forUpdate) query = query.forUpdate();
  const row = await query.executeTakeFirst();
  return row ? toWriting(row) : undefined;
}

export async function findWriting(db: Kysely<Database>, id: string, options: { forUpdate?: boolean } = {}) {
  let query = db.selectFrom('writings').selectAll().where('id', '=', id);
  if (options.forUpdate) query = query.forUpdate();
  const row = await query.executeTakeFirst();
  return row ? toWriting(row) : undefined;
}

/** The writing an order pays for: its full text (`order_id`) or its unlimited revisions (`revisions_order_id`). */
export async function findWritingByOrder(
  db: Kysely<Database>,
  orderId: string,
  options: { forUpdate?: boolean; column?: 'order_id' | 'revisions_order_id' } = {},
) {
  let query = db
    .selectFrom('writings')
    .selectAll()
    .where(options.column ?? 'order_id', '=', orderId);
  if (options.forUpdate) query = query.forUpdate();
  const row = await query.executeTakeFirst();
  return row ? toWriting(row) : undefined;
}

export async function listWritingsOfUser(
  db: Kysely<Database>,
  userId: string,
  limit = 50,
): Promise<Writing[]> {
  const rows = await db
    .selectFrom('writings')
    .selectAll()
    .where('user_id', '=', userId)
    .where('hidden_at', 'is', null)
    .orderBy('created_at', 'desc')
    .limit(limit)
    .execute();
  return rows.map(toWriting);
}

/** The account's drafts, locked for its deletion (the orders paying for them are locked already). */
export async function lockWritingsOf(db: Kysely<Database>, userId: string): Promise<Writing[]> {
  const rows = await db
    .selectFrom('writings')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('id')
    .forUpdate()
    .execute();
  return rows.map(toWriting);
}

/** Deletes every draft of the account (account deletion); the number deleted. */
export async function deleteAccountWritings(db: Kysely<Database>, userId: string): Promise<number> {
  const result = await db.deleteFrom('writings').where('user_id', '=', userId).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/**
 * The account's drafts for "export my data", deleted ones included (still held): the form, the
 * outline, abstract, references and every written section. Ids and internal state are left out.
 */
export async function listWritingsForExport(db: Kysely<Database>, userId: string) {
  const rows = await db
    .selectFrom('writings')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('created_at')
    .execute();
  return rows.map(toWriting).map((w) => ({
    area: w.area,
    topic: w.topic,
    title: w.title,
    discipline: w.discipline,
    degree: w.degree,
    language: w.language,
    targetWords: w.targetWords,
    requirements: w.requirements,
    templateId: w.templateId,
    outline: w.outline,
    abstract: w.abstract,
    sources: w.sources,
    sections: w.sections,
    status: w.status,
    createdAt: w.createdAt.toISOString(),
    updatedAt: w.updatedAt.toISOString(),
    finishedAt: w.finishedAt?.toISOString() ?? null,
    deletedAt: w.hiddenAt?.toISOString() ?? null,
  }));
}

export interface WritingUpdate {
  title?: string;
  topic?: string;
  discipline?: string;
  degree?: string;
  language?: 'zh' | 'en';
  targetWords?: number;
  requirements?: string;
  templateId?: string;
  outline?: OutlineItem[] | null;
  abstract?: AbstractValue | null;
  sources?: Source[];
  sections?: WrittenSection[];
  orderId?: string | null;
  status?: Writing['status'];
  progress?: number;
  failureReason?: string | null;
  freeOutline?: boolean;
  outlinesGenerated?: number;
  revisionsUsed?: number;
  revisionsOrderId?: string | null;
  unlimitedRevisions?: boolean;
  revision?: SectionRevision | null;
  finishedAt?: Date | null;
  hiddenAt?: Date | null;
}

/** What updateWriting may change (WritingUpdate's fields). */
const WRITING_UPDATE_FIELDS = [
  'title',
  'topic',
  'discipline',
  'degree',
  'language',
  'targetWords',
  'requirements',
  'templateId',
  'outline',
  'abstract',
  'sources',
  'sections',
  'orderId',
  'status',
  'progress',
  'failureReason',
  'freeOutline',
  'outlinesGenerated',
  'revisionsUsed',
  'revisionsOrderId',
  'unlimitedRevisions',
  'revision',
  'finishedAt',
  'hiddenAt',
] as const satisfies readonly (keyof WritingUpdate)[];

export async function updateWriting(
  db: Kysely<Database>,
  id: string,
  u: WritingUpdate,
  now: Date,
): Promise<void> {
  const json = ['outline', 'abstract', 'sources', 'sections', 'revision'] as const;
  await db
    .updateTable('writings')
    .set({ ...updateColumns('writings', u, WRITING_UPDATE_FIELDS, json), updated_at: now })
    .where('id', '=', id)
    .execute();
}
