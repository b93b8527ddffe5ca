import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mergePassages, type Passage } from '../src/core/align.ts';
import { bridgeGaps } from '../src/core/passages.ts';
import {
  buildIndex,
  checkText,
  getIndexFingerprints,
  type LocalIndex,
  rankCandidates,
  resolveOptions,
} from '../src/index.ts';
import { LIBRARY, makeTempDir, OWN_OTHER, SRC_ECONOMY, SRC_SOIL } from './fixtures.ts';

const passage = (qs: number, qe: number, ss: number, se: number): Passage => ({
  docNo: 1,
  qs,
  qe,
  ss,
  se,
  exact: qe - qs,
  fuzzy: 0,
  diagonal: true,
  cores: undefined,
});

describe('mergePassages', () => {
  it('joins runs separated by a small gap into one passage', () => {
    const merged = mergePassages([passage(0, 30, 100, 130), passage(33, 60, 133, 160)], 12, 160);
    expect(merged).toHaveLength(1);
    expect(merged[0]).toMatchObject({ qs: 0, qe: 60, ss: 100, se: 160, exact: 57, diagonal: false });
  });

  it('joins shuffled sentences of one passage whatever their source order', () => {
    // Source sentences A [0,40) B [40,90) C [90,150), copied as C A B.
    const merged = mergePassages(
      [passage(0, 60, 90, 150), passage(60, 100, 0, 40), passage(100, 150, 40, 90)],
      12,
      160,
    );
    expect(merged).toHaveLength(1);
    expect(merged[0]).toMatchObject({ qs: 0, qe: 150, ss: 0, se: 150 });
  });

  it('keeps apart runs far apart in the input or in the source', () => {
    expect(mergePassages([passage(0, 20, 0, 20), passage(60, 80, 60, 80)], 12, 160)).toHaveLength(2);
    expect(mergePassages([passage(0, 20, 0, 20), passage(20, 40, 5000, 5020)], 12, 160)).toHaveLength(2);
  });
});

describe('bridgeGaps', () => {
  it('closes a sentence-sized gap that the source has at the same place, and nothing else', () => {
    const bridged = bridgeGaps([passage(0, 50, 0, 50), passage(90, 150, 92, 152)]);
    expect(bridged).toHaveLength(1);
    expect(bridged[0]).toMatchObject({ qs: 0, qe: 150, ss: 0, se: 152 });
    // The source continues straight on: the input inserted a sentence of its own.
    expect(bridgeGaps([passage(0, 50, 0, 50), passage(90, 150, 50, 110)])).toHaveLength(2);
    // Too far apart, or too short to vouch for the gap.
    expect(bridgeGaps([passage(0, 50, 0, 50), passage(150, 200, 150, 200)])).toHaveLength(2);
    expect(bridgeGaps([passage(0, 20, 0, 20), passage(60, 80, 60, 80)])).toHaveLength(2);
  });
});

describe('candidate selection', () => {
  let dir: string;
  let index: LocalIndex;
  beforeAll(async () => {
    dir = makeTempDir('align');
    // Thirty copies of the soil abstract, then the economy abstract last.
    const copies = Array.from({ length: 30 }, (_, i) => ({ id: `soil-${i}`, title: null, text: SRC_SOIL }));
    index = await buildIndex(dir, [...copies, ...LIBRARY]);
  });
  afterAll(async () => {
    await index.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('covers distinct parts of the input instead of taking every duplicate of one source', async () => {
    const text = `${SRC_SOIL}${OWN_OTHER}${SRC_ECONOMY}`;
    const hashes = getIndexFingerprints(text, index.params).hashes;
    const chosen = rankCandidates(await index.lookup(hashes), resolveOptions({ maxCandidates: 2 }));
    const docs = await index.getDocuments(chosen);
    // The rarer (more informative) source first; one copy of the duplicated one, not thirty.
    expect(docs.map((d) => d.text)).toEqual([SRC_ECONOMY, SRC_SOIL]);
    const report = await checkText(index, text, { maxCandidates: 2 });
    expect(report.sources.map((s) => s.sourceId).sort()).toEqual(['econ', 'soil-0']);
  });

  it('takes candidates past maxCandidates while each adds real evidence, up to candidateLimit', () => {
    // Documents 1–3 each share three fingerprints of their own with the input, 4 and 5 one each.
    const rows: [number, number][] = [];
    for (const doc of [1, 2, 3]) for (let f = 0; f < 3; f++) rows.push([doc * 100 + f, doc]);
    rows.push([400, 4], [500, 5]);
    rows.sort((a, b) => a[0] - b[0]);
    const postings = {
      hashes: Uint32Array.from(rows.map((r) => r[0])),
      docNos: Uint32Array.from(rows.map((r) => r[1])),
      positions: new Uint32Array(rows.length),
    };
    const pick = (o: object) => rankCandidates(postings, resolveOptions(o));
    expect(pick({ maxCandidates: 2, candidateLimit: 10, minMarginalWeight: 2 })).toEqual([1, 2, 3]);
    expect(pick({ maxCandidates: 2, candidateLimit: 2 })).toEqual([1, 2]);
    expect(pick({ maxCandidates: 4, candidateLimit: 10, minMarginalWeight: 2 })).toEqual([1, 2, 3, 4]);
    expect(() => pick({ maxCandidates: 4, candidateLimit: 3 })).toThrow(RangeError);
  });

  it('does not count two stock phrases that meet across a full stop', async () => {
    const stockIndex = await buildIndex(makeTempDir('stock'), [
      {
        id: 'a',
        text: '本文对该结构进行了数值模拟研究。结果表明：模型能够较好地反映实际情况，具有一定的参考价值。',
      },
    ]);
    try {
      const report = await checkText(
        stockIndex,
        '我们在实验室中进行了数值模拟研究。结果表明：新材料的强度明显提高。',
      );
      expect(report.matches).toEqual([]);
    } finally {
      await stockIndex.close();
      fs.rmSync(stockIndex.root, { recursive: true, force: true });
    }
  });

  it('does not take a field template with other numbers and terms for a paraphrase', async () => {
    const template = await buildIndex(makeTempDir('template'), [
      {
        id: 'hplc',
        text: '样品处理后采用C18色谱柱分离，流动相为甲醇-磷酸二氢钠溶液，流速1.0mL/min，检测波长279nm，柱温30℃，进样量10μL。',
      },
    ]);
    try {
      const report = await checkText(
        template,
        '样品处理后采用ODS色谱柱分离，流动相为乙腈-磷酸二氢钠溶液，流速1.2mL/min，检测波长265nm，柱温25℃，进样量20μL。',
      );
      expect(report.matches).toEqual([]);
    } finally {
      await template.close();
      fs.rmSync(template.root, { recursive: true, force: true });
    }
  });
});
