import { z } from 'zod';
import { LIBRARY_COLLECTIONS } from '../constants.ts';
import { endpoint, isoDate, nullData } from './endpoint.ts';
import { intInSchema, pageOf } from './orders.ts';

/**
 * The console's comparison-library screen (/admin/library, docs/api/operator.md): statistics by
 * collection, imports (a durable job each, progress on the page), search, removal, and the papers
 * users added by consent. Reading: admin and support; importing and removing: admin.
 */

/** Collections an operator imports into (`user` holds only papers users opted in at upload). */
export const LIBRARY_IMPORT_COLLECTIONS = ['journal', 'thesis', 'web'] as const;

/** The import upload's rules, shared by the page (checked before sending) and the server. */
export const LIBRARY_IMPORT_RULES = {
  maxBytes: 100 * 1024 * 1024,
  /** What the file's name must end with (case-insensitive). */
  extensions: ['.jsonl', '.jsonl.gz', '.zip'] as const,
  collectionRequired: '请选择导入到哪个比对库',
  fileRequired: '请选择要导入的文件',
  badExtension: '只能导入 .jsonl、.jsonl.gz 或 .zip 文件',
  tooLarge: '导入文件不能超过 100 MB，请拆分后分批导入',
} as const;

const collectionSchema = z.enum(LIBRARY_COLLECTIONS, { error: '比对库不正确' });

const documentSchema = z.object({
  id: z.string(),
  title: z.string().nullable(),
  authors: z.array(z.string()),
  year: z.number().nullable(),
  source: z.string().nullable(),
  discipline: z.string().nullable(),
  collection: collectionSchema,
  chars: z.number(),
  /** import: an operator's import; upload: a user's paper added with their consent. */
  origin: z.enum(['import', 'upload']),
  addedAt: isoDate,
});
export type LibraryDocument = z.output<typeof documentSchema>;

const summarySchema = z.object({
  read: z.number(),
  added: z.number(),
  skippedExisting: z.number(),
  skippedDuplicates: z.number(),
  skippedInvalid: z.number(),
  characters: z.number(),
});

const importSchema = z.object({
  importId: z.string(),
  fileName: z.string(),
  fileBytes: z.number(),
  collection: z.enum(LIBRARY_IMPORT_COLLECTIONS),
  status: z.enum(['queued', 'running', 'succeeded', 'failed']),
  /** 0–100. */
  progress: z.number(),
  progressText: z.string().nullable(),
  summary: summarySchema.nullable(),
  /** Why it failed (nothing was added). */
  error: z.string().nullable(),
  username: z.string(),
  createdAt: isoDate,
  finishedAt: isoDate.nullable(),
});
export type LibraryImport = z.output<typeof importSchema>;

const statsSchema = z.object({
  collections: z.array(
    z.object({
      collection: collectionSchema,
      name: z.string(),
      documents: z.number(),
      chars: z.number(),
      /** When its newest document was added (an import, or a user's consented paper). */
      lastAddedAt: isoDate.nullable(),
    }),
  ),
  documents: z.number(),
  chars: z.number(),
  /** Each similarity goods and whether it is on sale with the library as it is (issue 12). */
  goods: z.array(
    z.object({ goodsId: z.string(), name: z.string(), onSale: z.boolean(), reason: z.string().nullable() }),
  ),
});
export type LibraryStats = z.output<typeof statsSchema>;

const documentIdSchema = z
  .string({ error: '请指定文档编号' })
  .trim()
  .min(1, { error: '请指定文档编号' })
  .max(300, { error: '文档编号不正确' });

export const consoleLibraryApi = {
  stats: endpoint({
    path: '/admin/library/stats',
    permission: 'library.read',
    body: z.object({}),
    data: statsSchema,
  }),
  imports: endpoint({
    path: '/admin/library/imports',
    permission: 'library.read',
    body: z.object({}),
    data: z.object({ list: z.array(importSchema) }),
  }),
  /** multipart: `collection` (journal | thesis | web) and the `file` (.jsonl, .jsonl.gz, .zip). */
  importFile: endpoint({ path: '/admin/library/import', permission: 'library.write', data: importSchema }),
  search: endpoint({
    path: '/admin/library/search',
    permission: 'library.read',
    body: z.object({
      text: z.string().trim().max(100, { error: '检索词不能超过100个字' }).optional().default(''),
      collection: collectionSchema.optional(),
      page: intInSchema(1, 10_000, 1, '页码'),
      pageSize: intInSchema(1, 50, 20, '每页条数'),
    }),
    data: pageOf(documentSchema),
  }),
  remove: endpoint({
    path: '/admin/library/remove',
    permission: 'library.write',
    body: z.object({ id: documentIdSchema }),
    data: nullData,
  }),
} as const;
