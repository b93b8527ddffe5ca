/**
 * @kyfw/simcheck — the similarity engine. Stable library API:
 *
 * - `buildIndex(dir, docs)` / `openIndex(dir)`: the local on-disk index (embedded mode)
 * - `checkText(index, text, options?)`: check a text, resolves to a `Report` (in code points, or
 *   with `units: 'product'` in 字数 and UTF-16 offsets; `countChars` counts a text the same way)
 * - `defaultOptions` (frozen) and `resolveOptions`
 *
 * The PostgreSQL index (scaled mode) is the subpath `@kyfw/simcheck/pg` (`createPgIndex`), the only
 * part that loads a database driver; its tables come from packages/db's migrations.
 */

export { toCliReport } from './cli/contract.ts';
export { rankCandidates } from './core/candidates.ts';
export { type CheckOptions, type CheckProgress, checkText } from './core/check.ts';
export { getIndexFingerprints } from './core/document.ts';
export { SimcheckError, type SimcheckErrorCode } from './core/errors.ts';
export { type Fingerprints, fingerprint, hashKgrams, winnow } from './core/fingerprint.ts';
export { type NormalizedText, normalizeText, toNormalizedIndex, toOriginalRange } from './core/normalize.ts';
export {
  defaultOptions,
  getWindow,
  type Options,
  resolveOptions,
  type SegmenterName,
} from './core/options.ts';
export { prepareEngine } from './core/prepare.ts';
export {
  analyzeStructure,
  type DocumentStructure,
  type Heading,
  type HeadingHint,
  type Section,
  type SectionKind,
} from './core/structure.ts';
export type {
  AddProgress,
  AddResult,
  Index,
  IndexParams,
  IndexStats,
  LibraryDocument,
  Match,
  MatchKind,
  Postings,
  Report,
  SectionReport,
  SourceReport,
  StoredDocument,
} from './core/types.ts';
export { countChars, type ReportUnits } from './core/units.ts';
export {
  buildIndex,
  DEFAULT_MEMORY_BYTES,
  LocalIndex,
  type OpenLocalOptions,
  openIndex,
} from './index-store/local.ts';
