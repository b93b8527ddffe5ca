/**
 * File extraction, the edge of the similarity engine: turns an uploaded .txt, .docx, .doc or .pdf
 * into plain text with headings and notes, under hard limits. See README.md in this folder.
 */
export { ExtractError, type ExtractErrorKind } from './errors.ts';
export { extractDocument } from './extract-document.ts';
export { defaultExtractLimits } from './limits.ts';
export { configureExtractionPool, extractionPoolStats } from './run-in-worker.ts';
export { sniffFormat } from './sniff.ts';
export type { DocumentFormat, ExtractedDocument, ExtractedHeading, ExtractLimits } from './types.ts';
