/**
 * A verbatim copy inside sentences that the word-level stage also matches (honest sentences on the
 * same topic next to it) must stay `verbatim`: the exact-verified span is red, only the rest may be
 * paraphrase. Regression: the merged passage used to be typed `paraphrase` as a whole when less than
 * 80 % of it was exact, so an 81-character copy came back orange.
 */
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildIndex, checkText, type LocalIndex } from '../src/index.ts';
import { codePointIndexOf, makeTempDir } from './fixtures.ts';

const EDU =
  '高等教育数字化转型是当前教育改革的核心议题之一。随着在线学习平台的普及，高校教学模式正在经历深刻变革，混合式教学逐渐成为主流。研究发现，教师的信息化教学能力、学生的自主学习动机以及学校的技术支持水平共同决定了混合式教学的实际效果。为了提升教学质量，高校应当建立完善的教师培训体系，并通过学习分析技术对学生的学习过程进行持续跟踪与评价。与此同时，数字化转型也对教育公平提出了新的挑战，不同地区、不同类型高校之间的数字鸿沟可能进一步扩大。';
const SOIL =
  '长期施肥显著改变了农田土壤微生物群落的组成与功能。本研究以连续施肥三十年的定位试验田为对象，采用高通量测序技术分析了不同施肥处理下土壤细菌和真菌群落的多样性变化。结果表明，有机肥与化肥配施能够提高土壤有机质含量和微生物多样性，而单施化肥导致土壤酸化，细菌群落的丰富度明显下降。冗余分析显示，土壤酸碱度和有机碳是驱动微生物群落结构变化的主要环境因子。';
const ECON =
  '数字经济的快速发展深刻影响着区域经济格局。本文基于二〇一一年至二〇二〇年省级面板数据，构建了数字经济发展水平评价指标体系，并运用空间杜宾模型检验了数字经济对区域创新能力的影响。研究发现，数字经济不仅显著促进了本地区的创新产出，还通过知识溢出效应带动了相邻地区的创新发展。进一步的异质性分析表明，这一促进作用在东部地区更为明显，而在中西部地区受到基础设施条件的制约。';

const LIBRARY = [
  { id: 'edu', title: '高等教育数字化转型与混合式教学效果研究', text: EDU },
  { id: 'soil', title: '长期施肥对土壤微生物群落结构的影响', text: SOIL },
  { id: 'econ', title: '数字经济对区域创新能力的影响', text: ECON },
];

/** Honest sentences around the copy, sharing a few words with the source. */
const AROUND: Record<string, [string, string]> = {
  edu: [
    '近年来，高校教学改革不断深化，数字化转型成为教育研究的热点。本文在调查的基础上认为，',
    '因此，本研究围绕教师培训与学习评价两个方面展开，探讨高校混合式教学质量的提升路径。',
  ],
  soil: [
    '农田土壤质量关系到粮食安全。为了了解施肥方式对土壤的长期作用，我们查阅了大量文献，发现',
    '。这说明合理施用有机肥对于维持土壤健康具有重要意义，本文将进一步分析其机制。',
  ],
  econ: [
    '在新发展格局下，区域创新能力的差异受到广泛关注。已有文献从多个角度讨论了数字经济，其中',
    '。据此，本文结合本省的实际情况，讨论数字经济推动区域协调发展的政策含义。',
  ],
};

const COPY_LENGTH = 81;
/** Copies starting mid-sentence, ending mid-sentence, and spanning one or two 。 */
const SOURCES: Record<string, string> = { edu: EDU, soil: SOIL, econ: ECON };
const CASES: [string, number][] = [
  ['edu', 20],
  ['edu', 40],
  ['edu', 55],
  ['edu', 70],
  ['edu', 120],
  ['soil', 10],
  ['soil', 40],
  ['soil', 60],
  ['soil', 90],
  ['econ', 15],
  ['econ', 50],
  ['econ', 100],
];

let dir: string;
let index: LocalIndex;

beforeAll(async () => {
  dir = makeTempDir('verbatim');
  index = await buildIndex(dir, LIBRARY);
});

afterAll(async () => {
  await index.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('a verbatim copy inside word-level matches', () => {
  it.each(CASES)('types an 81-character copy of %s from %i verbatim and covers it', async (id, from) => {
    const src = SOURCES[id]!;
    const copy = Array.from(src)
      .slice(from, from + COPY_LENGTH)
      .join('');
    expect(Array.from(copy)).toHaveLength(COPY_LENGTH);
    const [before, after] = AROUND[id]!;
    const text = `${before}${copy}${after}`;
    const start = codePointIndexOf(text, copy);
    const end = start + COPY_LENGTH;
    const report = await checkText(index, text);

    const overlapping = report.matches.filter((m) => m.start < end && start < m.end);
    expect(overlapping.length).toBeGreaterThan(0);
    // Nothing inside the copied span is typed anything but verbatim.
    for (const m of overlapping) {
      const inside = Math.min(end, m.end) - Math.max(start, m.start);
      if (m.kind !== 'verbatim') expect(inside, `${m.kind} ${m.start}-${m.end}`).toBeLessThanOrEqual(2);
    }
    const verbatim = overlapping.filter((m) => m.kind === 'verbatim');
    expect(verbatim).toHaveLength(1);
    const m = verbatim[0]!;
    expect(m.sourceId).toBe(id);
    expect(Math.abs(m.start - start)).toBeLessThanOrEqual(2);
    expect(Math.abs(m.end - end)).toBeLessThanOrEqual(2);
    // The source range is the copied passage of the source.
    expect(Math.abs(m.sourceStart - from)).toBeLessThanOrEqual(2);
    expect(Math.abs(m.sourceEnd - (from + COPY_LENGTH))).toBeLessThanOrEqual(2);
  });
});
