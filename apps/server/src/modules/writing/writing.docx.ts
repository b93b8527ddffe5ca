import { createHash } from 'node:crypto';
import {
  AlignmentType,
  BorderStyle,
  Document,
  Footer,
  Header,
  HeadingLevel,
  HeightRule,
  ImageRun,
  ImportedXmlComponent,
  NumberFormat,
  Packer,
  PageNumber,
  Paragraph,
  type ParagraphChild,
  SectionType,
  Table,
  TableCell,
  TableOfContents,
  TableRow,
  TextRun,
  VerticalAlign,
  WidthType,
} from 'docx';
import { unzipSync } from 'fflate';
import { formatGbt7714, renumberCitations } from './references.ts';
import { CHART_SIZE, renderChartPng } from './writing.chart.ts';
import { type CitationFinding, citationFindings, cleanCitations, totalRemoved } from './writing.citations.ts';
import type { FigureSpec } from './writing.figure.ts';
import { latexToOmml } from './writing.math.ts';
import type { Writing } from './writing.repo.ts';
import type { OutlineItem } from './writing.schemas.ts';
import { templateOf } from './writing.templates.ts';
import { TEXTS } from './writing.texts.ts';

const FONT = { ascii: 'Times New Roman', hAnsi: 'Times New Roman', eastAsia: '宋体' };
const HEADING_FONT = { ascii: 'Times New Roman', hAnsi: 'Times New Roman', eastAsia: '黑体' };

/**
 * The implicit label of AI-generated content (《人工智能生成合成内容标识办法》, GB 45438-2025, in force
 * since 2025-09-01): a custom document property `AIGC` with the producer and a content id. The
 * explicit label is the text in every page header and at the start of the document.
 */
export function aigcMetadata(
  w: Writing,
  producedAt: Date,
): { Label: string; ContentProducer: string; ProduceID: string; ReservedCode1: string } {
  return {
    Label: '1',
    ContentProducer: 'kyfw-ai-writing',
    ProduceID: w.id,
    ReservedCode1: createHash('sha256')
      .update(`${w.id}:${producedAt.toISOString()}`)
      .digest('hex')
      .slice(0, 32),
  };
}

/** A centred 表/图 caption line (五号). */
function caption(text: string): Paragraph {
  return new Paragraph({
    alignment: AlignmentType.CENTER,
    spacing: { before: 120, after: 120 },
    children: [new TextRun({ text, font: FONT, size: 21 })],
  });
}

/** A section's text: paragraphs, code, equations, tables (each after its caption from `tableCaption`). */
function bodyParagraphs(
  text: string,
  size: number,
  lineSpacing: number,
  tableCaption: () => string = () => '',
): (Paragraph | Table)[] {
  const out: (Paragraph | Table)[] = [];
  const lines = text.split(/\r?\n/);
  let i = 0;
  const para = (content: string) =>
    new Paragraph({
      children: [new TextRun({ text: content, font: FONT, size })],
      indent: { firstLine: size * 20 },
      spacing: { line: lineSpacing },
      alignment: AlignmentType.JUSTIFIED,
    });
  while (i < lines.length) {
    const line = lines[i]!.trim();
    if (line.startsWith('```')) {
      const code: string[] = [];
      i += 1;
      while (i < lines.length && !lines[i]!.trim().startsWith('```')) code.push(lines[i++]!);
      i += 1;
      for (const c of code)
        out.push(
          new Paragraph({
            children: [new TextRun({ text: c || ' ', font: 'Consolas', size: 18 })],
            spacing: { line: 240 },
          }),
        );
      continue;
    }
    if (/^\$\$.*\$\$$/.test(line)) {
      // A Word equation (OMML) Word can edit; LaTeX that does not parse stays visible as text.
      const latex = line.slice(2, -2).trim();
      const omml = latexToOmml(latex);
      out.push(
        new Paragraph({
          alignment: AlignmentType.CENTER,
          children: omml
            ? [ImportedXmlComponent.fromXmlString(omml) as unknown as ParagraphChild]
            : [new TextRun({ text: TEXTS.formulaUnreadable(latex), font: FONT, size })],
        }),
      );
      i += 1;
      continue;
    }
    if (line.startsWith('|')) {
      const rows: string[][] = [];
      while (i < lines.length && lines[i]!.trim().startsWith('|')) {
        const cells = lines[i]!.trim()
          .replace(/^\||\|$/g, '')
          .split('|')
          .map((c) => c.trim());
        if (!cells.every((c) => /^:?-{2,}:?$/.test(c))) rows.push(cells);
        i += 1;
      }
      const width = Math.max(...rows.map((r) => r.length));
      const title = tableCaption();
      if (title) out.push(caption(title));
      out.push(
        new Table({
          width: { size: 100, type: WidthType.PERCENTAGE },
          rows: rows.map(
            (r, ri) =>
              new TableRow({
                children: Array.from(
                  { length: width },
                  (_, ci) =>
                    new TableCell({
                      children: [
                        new Paragraph({
                          alignment: AlignmentType.CENTER,
                          children: [
                            new TextRun({ text: r[ci] ?? '', font: FONT, size: 21, bold: ri === 0 }),
                          ],
                        }),
                      ],
                    }),
                ),
              }),
          ),
        }),
      );
      continue;
    }
    if (line) out.push(para(line));
    i += 1;
  }
  return out;
}

/** Width of a chart in the document (pixels at 96 dpi: about 14.3 cm, inside every template's margins). */
const CHART_WIDTH = 540;

/** A section's figure: its chart with the caption below, or the dashed box the student replaces. */
function figureParagraphs(
  chart: { png: Buffer; spec: FigureSpec } | undefined,
  number: string,
  itemName: string,
): (Paragraph | Table)[] {
  if (chart)
    return [
      new Paragraph({
        alignment: AlignmentType.CENTER,
        keepNext: true,
        spacing: { before: 240, after: 60 },
        children: [
          new ImageRun({
            type: 'png',
            data: chart.png,
            transformation: {
              width: CHART_WIDTH,
              height: Math.round((CHART_WIDTH * CHART_SIZE.height) / CHART_SIZE.width),
            },
            altText: { name: `图${number}`, title: chart.spec.caption, description: chart.spec.caption },
          }),
        ],
      }),
      caption(TEXTS.figureCaption(number, chart.spec.caption)),
    ];
  // A dashed box about as tall as a figure, its text saying what to put there.
  const dashed = { style: BorderStyle.DASHED, size: 8, color: '808080' };
  return [
    new Paragraph({ spacing: { before: 120, after: 0 }, children: [] }),
    new Table({
      width: { size: 80, type: WidthType.PERCENTAGE },
      alignment: AlignmentType.CENTER,
      rows: [
        new TableRow({
          height: { value: 2400, rule: HeightRule.ATLEAST },
          children: [
            new TableCell({
              verticalAlign: VerticalAlign.CENTER,
              borders: { top: dashed, bottom: dashed, left: dashed, right: dashed },
              children: [
                new Paragraph({
                  alignment: AlignmentType.CENTER,
                  children: [
                    new TextRun({
                      text: TEXTS.figurePlaceholder(itemName),
                      font: FONT,
                      size: 21,
                      color: '808080',
                    }),
                  ],
                }),
              ],
            }),
          ],
        }),
      ],
    }),
    caption(TEXTS.figureCaption(number, itemName)),
  ];
}

function heading(text: string, level: 1 | 2 | 3, size: number): Paragraph {
  return new Paragraph({
    heading:
      level === 1 ? HeadingLevel.HEADING_1 : level === 2 ? HeadingLevel.HEADING_2 : HeadingLevel.HEADING_3,
    alignment: level === 1 ? AlignmentType.CENTER : AlignmentType.LEFT,
    spacing: { before: 240, after: 240 },
    children: [new TextRun({ text, font: HEADING_FONT, size, bold: level === 1 })],
  });
}

/** The writing's texts as the .docx prints them: cleaned, renumbered, with the reference list. */
interface Prepared {
  abstract: Writing['abstract'];
  textOf: Map<string, string>;
  list: { n: number; source: Writing['sources'][number] }[];
  charts: Map<string, { png: Buffer; spec: FigureSpec }>;
  removed: number;
}

/**
 * What the model wrote, cleaned once more on the way out (writing.citations.ts; a no-op for text
 * the job and the revision already cleaned, a guard for drafts written before those checks) and
 * numbered by first citation.
 */
async function prepare(w: Writing, sandbox: boolean): Promise<Prepared> {
  const clean = (text: string, sources: Writing['sources']) =>
    cleanCitations(text, { sources, language: w.language, lastAttempt: true });
  const cleaned = w.sections.map((s) => clean(s.text, w.sources));
  const { texts, list } = renumberCitations(
    cleaned.map((c) => c.text),
    w.sources,
  );
  const textOf = new Map(w.sections.map((s, i) => [s.path, texts[i]!]));
  const abstract = w.abstract
    ? { ...w.abstract, zh: clean(w.abstract.zh, []).text, en: clean(w.abstract.en, []).text }
    : null;
  // Charts of the sections that have one (drawn from their text's numbers; the sandbox's say so).
  const charts = new Map<string, { png: Buffer; spec: FigureSpec }>();
  for (const s of w.sections) {
    if (!s.figure) continue;
    const spec = { ...s.figure, caption: clean(s.figure.caption, []).text || s.heading };
    const note = sandbox ? TEXTS.sandboxChartNote : undefined;
    charts.set(s.path, { png: await renderChartPng(spec, note ? { note } : {}), spec });
  }
  const removed =
    w.sections.reduce((sum, s) => sum + s.removedCitations, 0) +
    cleaned.reduce((sum, c) => sum + totalRemoved(c.removed), 0);
  return { abstract, textOf, list, charts, removed };
}

/** What the final audit of a .docx found: nothing, or the citation-like text that does not resolve. */
export interface DocxAudit {
  passed: boolean;
  findings: CitationFinding[];
}

/** Every paragraph's text in the .docx's parts that hold text (body, headers, footers, notes). */
export function docxParagraphs(bytes: Uint8Array): string[] {
  const files = unzipSync(bytes);
  const out: string[] = [];
  for (const [name, data] of Object.entries(files)) {
    if (!/^word\/(document|header\d*|footer\d*|footnotes|endnotes|comments)\.xml$/.test(name)) continue;
    const xml = new TextDecoder().decode(data);
    for (const para of xml.split(/<\/w:p>/)) {
      const text = para
        .replace(/<w:tab\/>/g, ' ')
        .replace(/<[^>]+>/g, '')
        .replace(/&lt;/g, '<')
        .replace(/&gt;/g, '>')
        .replace(/&quot;/g, '"')
        .replace(/&apos;/g, "'")
        .replace(/&amp;/g, '&')
        .trim();
      if (text) out.push(text);
    }
  }
  return out;
}

/**
 * The final audit: every paragraph, table cell, caption, header and footer of the .docx, except the
 * reference list's own heading and entries (built by code), must hold no citation-like text that
 * does not resolve to that list (writing.citations.ts). The writing's title and outline headings
 * are the student's and are not read as citations.
 */
export function auditDocx(bytes: Uint8Array, w: Writing, list: Prepared['list']): DocxAudit {
  const entries = new Set(list.map(({ n, source }) => `[${n}] ${formatGbt7714(source)}`));
  const verbatim = [w.title ?? '', w.topic, ...namesOf(w.outline ?? [])]
    .filter((t) => t.length >= 2)
    .sort((a, b) => b.length - a.length);
  const ctx = { numbers: new Set(list.map((e) => e.n)), sources: list.map((e) => e.source) };
  const findings: CitationFinding[] = [];
  let ownHeading = false;
  for (const para of docxParagraphs(bytes)) {
    if (entries.has(para)) continue;
    if (para === TEXTS.references && !ownHeading) {
      ownHeading = true;
      continue;
    }
    let text = para;
    for (const v of verbatim) text = text.split(v).join(' ');
    findings.push(...citationFindings(text, ctx));
  }
  return { passed: findings.length === 0, findings };
}

/**
 * The final audit of a draft: its .docx as the student would download it (auditDocx), and the
 * stored text of each section (the API's /fullText shows it too). `failing`: the sections whose text
 * holds a citation that does not resolve (to be written again).
 */
export async function auditDraft(
  w: Writing,
  sandbox: boolean,
): Promise<{ docx: DocxAudit; failing: string[] }> {
  const { audit } = await renderWritingDocx(w, { sandbox, now: new Date() });
  const ctx = { numbers: new Set(w.sources.map((s) => s.n)), sources: w.sources };
  const failing = w.sections.filter((s) => citationFindings(s.text, ctx).length > 0).map((s) => s.path);
  return { docx: audit, failing };
}

function namesOf(items: readonly OutlineItem[]): string[] {
  return items.flatMap((i) => [i.name, ...namesOf(i.children ?? [])]);
}

/**
 * The finished writing as a .docx in its format template, with the AI-generated-content labels,
 * and the final audit of its text. The reference list says 未编造任何文献 only when the audit
 * passed; otherwise it says that citations could not be verified.
 */
export async function renderWritingDocx(
  w: Writing,
  options: { sandbox: boolean; now: Date },
): Promise<{ bytes: Buffer; audit: DocxAudit }> {
  const prepared = await prepare(w, options.sandbox);
  const passed = await buildDocx(w, prepared, options, true);
  const audit = auditDocx(passed, w, prepared.list);
  if (audit.passed) return { bytes: passed, audit };
  return { bytes: await buildDocx(w, prepared, options, false), audit };
}

async function buildDocx(
  w: Writing,
  prepared: Prepared,
  options: { sandbox: boolean; now: Date },
  auditPassed: boolean,
): Promise<Buffer> {
  const t = templateOf(w.templateId);
  const outline = w.outline ?? [];
  const byPath = new Map(w.sections.map((s) => [s.path, s]));
  const { textOf, list, charts } = prepared;
  const label = options.sandbox ? `${TEXTS.aiLabelExplicit}　${TEXTS.aiLabelSandbox}` : TEXTS.aiLabelExplicit;
  const title = w.title ?? w.topic;

  const front: (Paragraph | Table)[] = [
    new Paragraph({
      alignment: AlignmentType.CENTER,
      border: {
        top: { style: BorderStyle.SINGLE, size: 6, color: 'C00000' },
        bottom: { style: BorderStyle.SINGLE, size: 6, color: 'C00000' },
      },
      children: [new TextRun({ text: label, font: HEADING_FONT, size: 21, color: 'C00000' })],
    }),
    new Paragraph({
      alignment: AlignmentType.CENTER,
      spacing: { before: 480, after: 480 },
      children: [new TextRun({ text: title, font: HEADING_FONT, size: 36, bold: true })],
    }),
  ];
  const abstract = prepared.abstract;
  if (abstract) {
    front.push(
      heading(TEXTS.abstractZh, 1, t.chapterSize),
      ...bodyParagraphs(abstract.zh, t.bodySize, t.lineSpacing),
    );
    front.push(
      new Paragraph({
        children: [
          new TextRun({ text: TEXTS.keywordsZh, font: HEADING_FONT, size: t.bodySize, bold: true }),
          new TextRun({ text: abstract.keywordsZh.join('；'), font: FONT, size: t.bodySize }),
        ],
      }),
    );
    front.push(
      heading(TEXTS.abstractEn, 1, t.chapterSize),
      ...bodyParagraphs(abstract.en, t.bodySize, t.lineSpacing),
    );
    front.push(
      new Paragraph({
        children: [
          new TextRun({ text: TEXTS.keywordsEn, font: FONT, size: t.bodySize, bold: true }),
          new TextRun({ text: abstract.keywordsEn.join('; '), font: FONT, size: t.bodySize }),
        ],
      }),
    );
  }
  const toc: Paragraph[] = [
    new Paragraph({
      alignment: AlignmentType.CENTER,
      children: [new TextRun({ text: TEXTS.tocTitle, font: HEADING_FONT, size: t.chapterSize })],
    }),
  ];
  const body: (Paragraph | Table)[] = [];
  // 表 and 图 are numbered per chapter: 表2-1, 图3-2.
  const counters = new Map<string, number>();
  const next = (kind: 'table' | 'figure', chapter: string) => {
    const key = `${kind}:${chapter}`;
    const n = (counters.get(key) ?? 0) + 1;
    counters.set(key, n);
    return `${chapter}-${n}`;
  };
  const walk = (items: readonly OutlineItem[], prefix: string, level: number) => {
    items.forEach((item, i) => {
      const path = prefix ? `${prefix}.${i + 1}` : String(i + 1);
      const chapter = path.split('.')[0]!;
      const text = level === 1 ? `第${path}章 ${item.name}` : `${path} ${item.name}`;
      body.push(
        heading(
          text,
          level as 1 | 2 | 3,
          level === 1 ? t.chapterSize : level === 2 ? t.sectionSize : t.bodySize,
        ),
      );
      if (item.children && item.children.length > 0) walk(item.children, path, level + 1);
      else if (byPath.has(path)) {
        body.push(
          ...bodyParagraphs(textOf.get(path) ?? '', t.bodySize, t.lineSpacing, () =>
            TEXTS.tableCaption(next('table', chapter), item.name),
          ),
        );
        if (item.picture === '1')
          body.push(...figureParagraphs(charts.get(path), next('figure', chapter), item.name));
      }
    });
  };
  walk(outline, '', 1);
  body.push(heading(TEXTS.references, 1, t.chapterSize));
  // Says with numbers where the references come from and what the checks removed — and that none
  // is invented only when the audit of the whole document passed.
  body.push(
    new Paragraph({
      children: [
        new TextRun({
          text: !auditPassed
            ? TEXTS.referencesAuditFailed
            : list.length === 0
              ? TEXTS.noReferences
              : TEXTS.referencesNote(list.length, w.sources.length, prepared.removed),
          font: FONT,
          size: 18,
          color: '595959',
        }),
      ],
    }),
  );
  for (const { n, source } of list) {
    body.push(
      new Paragraph({
        indent: { hanging: 420, left: 420 },
        spacing: { line: t.lineSpacing },
        children: [new TextRun({ text: `[${n}] ${formatGbt7714(source)}`, font: FONT, size: 21 })],
      }),
    );
  }

  const page = {
    margin: { top: t.marginTop, bottom: t.marginBottom, left: t.marginLeft, right: t.marginRight },
  };
  const headers = {
    default: new Header({
      children: [
        new Paragraph({
          alignment: AlignmentType.CENTER,
          children: [new TextRun({ text: `${title}　｜　${label}`, font: FONT, size: 18 })],
        }),
      ],
    }),
  };
  const footer = () =>
    new Footer({
      children: [
        new Paragraph({
          alignment: AlignmentType.CENTER,
          children: [new TextRun({ children: [PageNumber.CURRENT], size: 18 })],
        }),
      ],
    });
  const doc = new Document({
    creator: 'kyfw AI 写作',
    title,
    description: label,
    keywords: 'AIGC',
    customProperties: [{ name: 'AIGC', value: JSON.stringify(aigcMetadata(w, options.now)) }],
    features: { updateFields: true },
    styles: { default: { document: { run: { font: FONT, size: t.bodySize } } } },
    sections: [
      {
        properties: { page: { ...page, pageNumbers: { start: 1, formatType: NumberFormat.UPPER_ROMAN } } },
        headers,
        footers: { default: footer() },
        children: front,
      },
      {
        properties: {
          type: SectionType.NEXT_PAGE,
          page: { ...page, pageNumbers: { formatType: NumberFormat.UPPER_ROMAN } },
        },
        headers,
        footers: { default: footer() },
        children: [...toc, new TableOfContents(TEXTS.tocHint, { hyperlink: true, headingStyleRange: '1-3' })],
      },
      {
        properties: {
          type: SectionType.NEXT_PAGE,
          page: { ...page, pageNumbers: { start: 1, formatType: NumberFormat.DECIMAL } },
        },
        headers,
        footers: { default: footer() },
        children: body,
      },
    ],
  });
  return Packer.toBuffer(doc);
}
