import {
  type AigcReportModel,
  type LiveFigures,
  type LiveParagraph,
  liveFiguresOfReport,
  type ReportModel,
} from '@kyfw/contracts';
import { countChars } from '@kyfw/simcheck';
import type { CheckRecord } from '../check.repo.ts';
import type { CheckRuntime } from '../check.runtime.ts';
import { buildReportModel } from '../report/report-model.ts';
import { compareWithinGoods, sourcesOf } from '../report-build.ts';
import type { RevisedText } from './revised-text.ts';

/**
 * The live figures of a revision, by the full check's own code: the comparison within the goods'
 * collections (compareWithinGoods, the check job's), the report model (buildReportModel) and the
 * AIGC detector as the check job runs it (the worker thread's aigcDetect). Nothing here computes a
 * figure itself: a revision's figures are the figures a check of the same text gives.
 */
export interface Measured {
  model: ReportModel;
  aigc: AigcReportModel;
}

export async function measureRevision(
  rt: CheckRuntime,
  check: Pick<CheckRecord, 'id' | 'goodsId' | 'title' | 'fileName'>,
  revised: Pick<RevisedText, 'text' | 'headings'>,
): Promise<Measured> {
  const compared = await compareWithinGoods(rt, check.goodsId, revised);
  const { sources, catalog } = await sourcesOf(rt, compared);
  const checkedAt = rt.now();
  const header = {
    orderId: check.id,
    orderNo: '',
    reportNo: '',
    verificationCode: '',
    verifyUrl: '',
    title: check.title,
    author: '',
    goodsName: '',
    fileName: check.fileName,
  };
  const model = buildReportModel({
    ...header,
    checkedAt,
    text: revised.text,
    report: compared.report,
    sources,
    catalog,
    warnings: [],
  });
  const aigc = await rt.pool.detectAigc({
    header: { ...header, checkedAt: checkedAt.toISOString() },
    text: revised.text,
    totalChars: model.figures.totalChars,
    warnings: [],
  });
  return { model, aigc };
}

export function liveFiguresOf({ model, aigc }: Measured): LiveFigures {
  return liveFiguresOfReport(model, aigc.figures);
}

/**
 * One paragraph of a measured revision: the marks inside it (clipped to it, offsets relative to
 * it), the characters under them (overlaps counted once) over its characters, and the AIGC index
 * of the detector's units covering it, weighted by how much of it each covers.
 */
export function liveParagraphOf(
  { model, aigc }: Measured,
  index: number,
  range: { start: number; end: number },
): LiveParagraph {
  const text = model.text.slice(range.start, range.end);
  const sources = new Map(model.sources.map((s) => [s.no, s]));
  const marks: LiveParagraph['marks'] = [];
  const covered: [number, number][] = [];
  for (const m of model.matches) {
    const a = Math.max(m.start, range.start);
    const b = Math.min(m.end, range.end);
    if (a >= b) continue;
    covered.push([a, b]);
    marks.push({
      start: a - range.start,
      end: b - range.start,
      kind: m.kind,
      sourceNo: m.sourceNo,
      sourceTitle: sources.get(m.sourceNo)?.title ?? '',
      sourcePassage: m.sourcePassage,
    });
  }
  covered.sort((x, y) => x[0] - y[0]);
  let copiedChars = 0;
  let at = -1;
  for (const [a, b] of covered) {
    const from = Math.max(a, at);
    if (from < b) copiedChars += countChars(model.text.slice(from, b));
    at = Math.max(at, b);
  }
  const chars = countChars(text);
  let weight = 0;
  let sum = 0;
  for (const p of aigc.paragraphs) {
    const overlap = Math.min(p.end, range.end) - Math.max(p.start, range.start);
    if (overlap <= 0) continue;
    weight += overlap;
    sum += overlap * p.score;
  }
  return {
    index,
    text,
    chars,
    copiedChars,
    rate: chars === 0 ? 0 : Math.min(1, copiedChars / chars),
    aigcScore: weight === 0 ? null : Math.round((sum / weight) * 10) / 10,
    marks: marks.sort((x, y) => x.start - y.start),
  };
}
