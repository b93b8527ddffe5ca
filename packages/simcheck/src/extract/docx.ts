import {
  headingLevelFromStyleId,
  localName,
  outlineToLevel,
  parseNumbering,
  parseStyles,
  prefixFor,
  type ResolvedStyle,
  resolveStyles,
  type StyleInfo,
  toInt,
  wordPrefix,
} from './docx-styles.ts';
import { ExtractError } from './errors.ts';
import { emptyNumbering, NumberingCounter } from './numbering.ts';
import { TextBuilder } from './text-builder.ts';
import type { ExtractedDocument, ExtractLimits } from './types.ts';
import { decodeXmlBytes, parseXml } from './xml.ts';
import { InflateBudget, readZipDirectory, readZipEntry, type ZipEntry } from './zip.ts';

/**
 * .docx (Office Open XML) extraction: the main document part, with heading levels from paragraph
 * styles and outline levels, list labels from numbering.xml, tables as tab-separated rows, and the
 * footnotes and endnotes that the body references, appended under '注释'.
 */

const markupCompatibilityNamespace = 'http://schemas.openxmlformats.org/markup-compatibility/2006';

const relationshipTypeSuffix = {
  officeDocument: '/officeDocument',
  styles: '/styles',
  numbering: '/numbering',
  footnotes: '/footnotes',
  endnotes: '/endnotes',
} as const;

/** True when the zip directory holds a WordprocessingML document (not a spreadsheet or slides). */
export function isWordPackage(entries: ReadonlyMap<string, ZipEntry>): boolean {
  if (entries.has('word/document.xml')) return true;
  for (const name of entries.keys())
    if (/^word\/[^/]+\.xml$/.test(name) && name.includes('document')) return true;
  return false;
}

export function extractDocx(bytes: Uint8Array, limits: ExtractLimits): ExtractedDocument {
  const entries = readZipDirectory(bytes);
  const budget = new InflateBudget(limits.maxDecompressedBytes);
  const readPart = (path: string): string | undefined => {
    const entry = entries.get(path);
    return entry ? decodeXmlBytes(readZipEntry(bytes, entry, budget)) : undefined;
  };

  const mainPath = findMainPart(readPart) ?? 'word/document.xml';
  const mainXml = readPart(mainPath);
  if (mainXml === undefined)
    throw new ExtractError('broken', undefined, { cause: new Error(`docx: no ${mainPath}`) });
  const related = readRelationships(readPart, mainPath);
  const partPath = (type: keyof typeof relationshipTypeSuffix, fallback: string) =>
    related.get(relationshipTypeSuffix[type]) ?? `word/${fallback}`;

  const stylesXml = readPart(partPath('styles', 'styles.xml'));
  const styles = stylesXml === undefined ? new Map<string, StyleInfo>() : parseStyles(stylesXml);
  const numberingXml = readPart(partPath('numbering', 'numbering.xml'));
  const numbering = numberingXml === undefined ? emptyNumbering() : parseNumbering(numberingXml);
  const context: WalkContext = { styles: resolveStyles(styles), counter: new NumberingCounter(numbering) };

  const builder = new TextBuilder(limits.maxChars);
  const references: NoteReference[] = [];
  walkWordXml(mainXml, context, {
    line: (text, level) => builder.addLine(text, level),
    noteReference: (reference) => references.push(reference),
  });

  const notes = { footnote: new Map<string, string[]>(), endnote: new Map<string, string[]>() };
  if (references.length > 0) {
    for (const kind of ['footnote', 'endnote'] as const) {
      if (!references.some((reference) => reference.kind === kind)) continue;
      const xml = readPart(partPath(`${kind}s`, `${kind}s.xml`));
      if (xml !== undefined) {
        walkWordXml(xml, context, { line: () => {}, noteReference: () => {}, notes: notes[kind] });
      }
    }
  }
  const noteLines: string[] = [];
  for (const kind of ['footnote', 'endnote'] as const) {
    for (const reference of references) {
      if (reference.kind !== kind) continue;
      const lines = notes[kind].get(reference.id);
      if (!lines) continue;
      const text = lines.filter((line) => line.trim() !== '').join(' ');
      if (text.trim() !== '') noteLines.push(text.trim());
      notes[kind].delete(reference.id); // a note referenced twice is listed once
    }
  }
  if (noteLines.length > 0) {
    builder.startFootnotes();
    for (const line of noteLines) builder.addLine(line);
  }

  const warnings: string[] = [];
  return {
    text: builder.toString(),
    format: 'docx',
    headings: builder.headings,
    ...(builder.footnotesStart === undefined ? {} : { footnotesStart: builder.footnotesStart }),
    warnings,
  };
}

// ---------------------------------------------------------------------------------------------
// Package relationships

function findMainPart(readPart: (path: string) => string | undefined): string | undefined {
  const rels = readPart('_rels/.rels');
  if (rels === undefined) return undefined;
  return parseRelationships(rels, '').get(relationshipTypeSuffix.officeDocument);
}

function readRelationships(
  readPart: (path: string) => string | undefined,
  partPath: string,
): Map<string, string> {
  const slash = partPath.lastIndexOf('/');
  const folder = slash < 0 ? '' : partPath.slice(0, slash + 1);
  const xml = readPart(`${folder}_rels/${partPath.slice(slash + 1)}.rels`);
  return xml === undefined ? new Map() : parseRelationships(xml, folder);
}

/** Maps a relationship type's last path segment ('/styles') to the target part's path. */
function parseRelationships(xml: string, baseFolder: string): Map<string, string> {
  const byType = new Map<string, string>();
  parseXml(xml, {
    open(name, attributes) {
      if (localName(name) !== 'Relationship' || attributes.TargetMode === 'External') return;
      const type = attributes.Type ?? '';
      const target = attributes.Target;
      if (!target) return;
      const suffix = type.slice(type.lastIndexOf('/'));
      if (!byType.has(suffix)) byType.set(suffix, resolvePartPath(baseFolder, target));
    },
    close() {},
    text() {},
  });
  return byType;
}

function resolvePartPath(baseFolder: string, target: string): string {
  const segments = (target.startsWith('/') ? target.slice(1) : baseFolder + target).split('/');
  const out: string[] = [];
  for (const segment of segments) {
    if (segment === '..') out.pop();
    else if (segment !== '.' && segment !== '') out.push(segment);
  }
  return out.join('/');
}

// ---------------------------------------------------------------------------------------------
// The body (and notes) walker

interface WalkContext {
  styles: Map<string, ResolvedStyle>;
  counter: NumberingCounter;
}

interface NoteReference {
  kind: 'footnote' | 'endnote';
  id: string;
}

interface WalkSink {
  /** A top-level paragraph or table row, with its heading level if it is a heading. */
  line(text: string, level: number | undefined): void;
  noteReference(reference: NoteReference): void;
  /** When walking footnotes.xml/endnotes.xml: note id -> its lines. */
  notes?: Map<string, string[]>;
}

interface Paragraph {
  parts: string[];
  styleId?: string;
  outlineLevel?: number;
  numId?: string;
  ilvl?: number;
}

type Container =
  | { kind: 'root' }
  | { kind: 'table'; row: string[] | undefined }
  | { kind: 'cell'; parts: string[] }
  | { kind: 'note'; id: string; lines: string[] };

/** Elements whose whole subtree is not visible text: tracked deletions and moves, old properties. */
const skippedElements = new Set([
  'del',
  'moveFrom',
  'pPrChange',
  'rPrChange',
  'sectPrChange',
  'numberingChange',
]);
const noteSeparatorTypes = new Set(['separator', 'continuationSeparator', 'continuationNotice']);

function walkWordXml(xml: string, context: WalkContext, sink: WalkSink): void {
  let w = 'w';
  let mc = 'mc';
  let first = true;
  let skipDepth = 0;
  let runDepth = 0;
  let inText = false;
  let inParagraphProperties = 0;
  const paragraphs: Paragraph[] = [];
  const containers: Container[] = [{ kind: 'root' }];
  const top = () => containers[containers.length - 1]!;

  const emit = (text: string, level: number | undefined) => {
    if (text.trim() === '') return; // empty paragraphs are layout, not text
    const container = top();
    if (container.kind === 'root') sink.line(text, level);
    else if (container.kind === 'cell') container.parts.push(text);
    else if (container.kind === 'note') container.lines.push(text);
  };

  const finishParagraph = (paragraph: Paragraph) => {
    const style = paragraph.styleId === undefined ? undefined : context.styles.get(paragraph.styleId);
    let level = style?.level ?? (paragraph.styleId ? headingLevelFromStyleId(paragraph.styleId) : undefined);
    if (paragraph.outlineLevel !== undefined) level = outlineToLevel(paragraph.outlineLevel);
    let label = '';
    const numId = paragraph.numId ?? style?.numId;
    if (numId !== undefined && numId !== '0') {
      const ilvl =
        paragraph.ilvl ??
        (paragraph.numId === undefined ? style?.ilvl : undefined) ??
        (paragraph.styleId === undefined
          ? undefined
          : context.counter.levelForStyle(numId, paragraph.styleId)) ??
        0;
      label = context.counter.next(numId, ilvl);
    }
    const body = paragraph.parts.join('');
    // An empty numbered paragraph still advances the counter but produces no line.
    let text = body.trim() === '' ? body : label + body;
    const isHeading = level !== undefined && containers.length === 1 && paragraphs.length === 0;
    // A heading keeps to one line even when its author broke it by hand.
    if (isHeading) text = text.replace(/\s*\n\s*/g, ' ').trim();
    emit(text, isHeading ? level : undefined);
  };

  parseXml(xml, {
    open(name, attributes, selfClosing) {
      if (first) {
        w = wordPrefix(attributes, w);
        mc = prefixFor(attributes, markupCompatibilityNamespace) ?? mc;
        first = false;
      }
      if (skipDepth > 0) {
        if (!selfClosing) skipDepth++;
        return;
      }
      const colon = name.indexOf(':');
      const prefix = colon < 0 ? '' : name.slice(0, colon);
      const local = name.slice(colon + 1);
      if (prefix === mc) {
        // Keep the first choice of AlternateContent, drop the fallback that repeats it.
        if (local === 'Fallback' && !selfClosing) skipDepth = 1;
        return;
      }
      if (prefix !== w) return;
      if (skippedElements.has(local)) {
        if (!selfClosing) skipDepth = 1;
        return;
      }
      const paragraph = paragraphs[paragraphs.length - 1];
      switch (local) {
        case 'p':
          if (!selfClosing) paragraphs.push({ parts: [] });
          return;
        case 'pPr':
          if (!selfClosing) inParagraphProperties++;
          return;
        case 'pStyle':
          if (paragraph && inParagraphProperties > 0) paragraph.styleId = attributes[`${w}:val`];
          return;
        case 'outlineLvl':
          if (paragraph && inParagraphProperties > 0) paragraph.outlineLevel = toInt(attributes[`${w}:val`]);
          return;
        case 'numId':
          if (paragraph && inParagraphProperties > 0) paragraph.numId = attributes[`${w}:val`];
          return;
        case 'ilvl':
          if (paragraph && inParagraphProperties > 0) paragraph.ilvl = toInt(attributes[`${w}:val`]);
          return;
        case 'r':
          if (!selfClosing) runDepth++;
          return;
        case 't':
          if (!selfClosing && runDepth > 0) inText = true;
          return;
        case 'tab':
        case 'ptab':
          if (runDepth > 0) paragraph?.parts.push('\t');
          return;
        case 'br': {
          const type = attributes[`${w}:type`];
          if (runDepth > 0 && type !== 'page' && type !== 'column') paragraph?.parts.push('\n');
          return;
        }
        case 'cr':
          if (runDepth > 0) paragraph?.parts.push('\n');
          return;
        case 'noBreakHyphen':
          if (runDepth > 0) paragraph?.parts.push('-');
          return;
        case 'sym': {
          const code = Number.parseInt(attributes[`${w}:char`] ?? '', 16);
          // Symbol-font glyphs live in the private use area F000–F0FF and are not text.
          if (runDepth > 0 && code > 0x1f && !(code >= 0xf000 && code <= 0xf0ff)) {
            paragraph?.parts.push(String.fromCodePoint(code));
          }
          return;
        }
        case 'footnoteReference':
        case 'endnoteReference': {
          const id = attributes[`${w}:id`];
          if (id !== undefined)
            sink.noteReference({ kind: local === 'footnoteReference' ? 'footnote' : 'endnote', id });
          return;
        }
        case 'tbl':
          if (!selfClosing) containers.push({ kind: 'table', row: undefined });
          return;
        case 'tr': {
          const table = top();
          if (table.kind === 'table' && !selfClosing) table.row = [];
          return;
        }
        case 'tc':
          if (!selfClosing) containers.push({ kind: 'cell', parts: [] });
          return;
        case 'footnote':
        case 'endnote': {
          if (!sink.notes) return;
          const type = attributes[`${w}:type`];
          if (type !== undefined && noteSeparatorTypes.has(type)) {
            if (!selfClosing) skipDepth = 1;
            return;
          }
          if (!selfClosing) containers.push({ kind: 'note', id: attributes[`${w}:id`] ?? '', lines: [] });
          return;
        }
      }
    },
    close(name) {
      if (skipDepth > 0) {
        skipDepth--;
        return;
      }
      const colon = name.indexOf(':');
      if ((colon < 0 ? '' : name.slice(0, colon)) !== w) return;
      switch (name.slice(colon + 1)) {
        case 'p': {
          const paragraph = paragraphs.pop();
          if (paragraph) finishParagraph(paragraph);
          return;
        }
        case 'pPr':
          if (inParagraphProperties > 0) inParagraphProperties--;
          return;
        case 'r':
          if (runDepth > 0) runDepth--;
          return;
        case 't':
          inText = false;
          return;
        case 'tc': {
          const cell = containers.pop();
          const table = top();
          if (cell?.kind === 'cell' && table.kind === 'table') {
            table.row?.push(
              cell.parts
                .join(' ')
                .replace(/[\t\n]+/g, ' ')
                .trim(),
            );
          }
          return;
        }
        case 'tr': {
          const table = top();
          if (table.kind !== 'table' || !table.row) return;
          const cells = table.row;
          table.row = undefined;
          if (cells.every((cell) => cell === '')) return;
          const outer = containers[containers.length - 2];
          // A table nested in a cell flattens into that cell; otherwise one line per row.
          const joined = cells.join(outer?.kind === 'cell' ? ' ' : '\t');
          containers.pop();
          emit(joined, undefined);
          containers.push(table);
          return;
        }
        case 'tbl':
          if (top().kind === 'table') containers.pop();
          return;
        case 'footnote':
        case 'endnote': {
          const note = top();
          if (note.kind === 'note') {
            containers.pop();
            sink.notes?.set(note.id, note.lines);
          }
          return;
        }
      }
    },
    text(text) {
      if (inText && skipDepth === 0) paragraphs[paragraphs.length - 1]?.parts.push(text);
    },
  });
}
