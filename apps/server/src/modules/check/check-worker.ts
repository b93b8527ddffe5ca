/**
 * The check worker thread: the CPU-heavy steps of a check — comparing a paper with the library and
 * rendering the PDF/HTML/zip — run here, so the API on the main thread stays responsive while a
 * check runs in the same process (embedded mode). One long-lived thread per pool slot; the index
 * readers are kept open between checks. Messages: see cpu-pool.ts.
 */
import { parentPort } from 'node:worker_threads';
import type { AigcReportModel, ReportModel } from '@kyfw/contracts';
import type { CheckProgress, HeadingHint, StoredDocument } from '@kyfw/simcheck';
import { type AigcReportHeader, buildAigcReportModel } from './aigc/aigc-report.ts';
import { createLocalReader, createPgReader, type IndexReader } from './library/library.ts';
import { loadFonts } from './report/fonts.ts';
import { renderAigcReport, renderReportFiles } from './report/render.ts';

export type IndexLocation =
  | { kind: 'local'; dir: string; memoryBytes?: number }
  | { kind: 'postgres'; databaseUrl: string };

export type WorkerTask =
  | {
      task: 'compare';
      location: IndexLocation;
      text: string;
      headings: HeadingHint[];
      excludeDocNos?: number[];
    }
  | { task: 'render'; model: ReportModel }
  | { task: 'aigcDetect'; header: AigcReportHeader; text: string; totalChars: number; warnings: string[] }
  | { task: 'aigcRender'; model: AigcReportModel }
  | { task: 'warm'; location: IndexLocation };

/** The answer to a task: exactly one per task id. */
export type WorkerReply =
  | { id: number; ok: true; result: unknown }
  | { id: number; ok: false; error: { name: string; message: string; code?: string } };

/** Where a running compare task is (the engine's progress), any number before its reply. */
export type WorkerProgress = { kind: 'progress'; id: number; progress: CheckProgress };

const readers = new Map<string, Promise<IndexReader>>();

function readerFor(location: IndexLocation): Promise<IndexReader> {
  const key = location.kind === 'local' ? `local:${location.dir}` : `pg:${location.databaseUrl}`;
  let reader = readers.get(key);
  if (!reader) {
    reader =
      location.kind === 'local'
        ? Promise.resolve(createLocalReader(location.dir, location.memoryBytes))
        : createPgReader(location.databaseUrl);
    reader.catch(() => readers.delete(key));
    readers.set(key, reader);
  }
  return reader;
}

async function run(id: number, message: WorkerTask): Promise<{ result: unknown; transfer: ArrayBuffer[] }> {
  if (message.task === 'warm') {
    // Open the index, load the engine's tables and segmenter, and read the fonts now, so the first
    // check after a start is not the slow one.
    const reader = await readerFor(message.location);
    const documents = await reader.countDocuments();
    await reader.prepare();
    loadFonts();
    return { result: { documents }, transfer: [] };
  }
  if (message.task === 'compare') {
    const reader = await readerFor(message.location);
    const { report, sources } = await reader.check(message.text, {
      headings: message.headings,
      excludeDocNos: message.excludeDocNos,
      // The figures in 字数 (whitespace not counted: the count the upload and its price use) and
      // offsets in UTF-16 code units (the browser slices the text with them).
      units: 'product',
      // Posted at once: the engine reports a handful of times, and the main thread decides what to store.
      onProgress: (progress) =>
        parentPort?.postMessage({ kind: 'progress', id, progress } satisfies WorkerProgress),
    });
    // Only the sources the report names travel back (their texts give the source passages).
    const used: StoredDocument[] = [];
    for (const s of report.sources) {
      const doc = sources.get(s.sourceId);
      if (doc) used.push(doc);
    }
    const candidates = [...sources.values()].map((d) => ({ id: d.id, docNo: d.docNo }));
    return { result: { report, sources: used, candidates }, transfer: [] };
  }
  if (message.task === 'aigcDetect') return { result: buildAigcReportModel(message), transfer: [] };
  if (message.task === 'aigcRender') {
    const pdf = await renderAigcReport(message.model);
    return { result: pdf, transfer: [pdf.buffer as ArrayBuffer] };
  }
  const files = await renderReportFiles(message.model);
  const buffers = [files.pdf, files.markedPdf, files.html, files.zip].map((b) => b.buffer as ArrayBuffer);
  return { result: files, transfer: [...new Set(buffers)] };
}

parentPort?.on('message', (envelope: { id: number; message: WorkerTask }) => {
  run(envelope.id, envelope.message).then(
    ({ result, transfer }) =>
      parentPort?.postMessage({ id: envelope.id, ok: true, result } satisfies WorkerReply, transfer),
    (error: unknown) => {
      const e = error as Error & { code?: string };
      parentPort?.postMessage({
        id: envelope.id,
        ok: false,
        error: { name: e?.name ?? 'Error', message: e?.message ?? String(error), code: e?.code },
      } satisfies WorkerReply);
    },
  );
});
