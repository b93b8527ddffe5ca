import { unzipSync } from 'fflate';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { CHART_SIZE, renderChartPng } from '../../src/modules/writing/writing.chart.ts';
import { renderWritingDocx } from '../../src/modules/writing/writing.docx.ts';
import {
  type FigureSpec,
  figureForSection,
  figureProblem,
  numbersIn,
} from '../../src/modules/writing/writing.figure.ts';
import type { Writing } from '../../src/modules/writing/writing.repo.ts';
import type { OutlineItem } from '../../src/modules/writing/writing.schemas.ts';
import { LlmError, type LlmProvider } from '../../src/providers/llm/index.ts';

// Figures: a chart only from numbers the section's text gives, validated; otherwise the marked
// placeholder box. The .docx holds the chart as a picture with its numbered caption below.

const TEXT = '2023 年调查显示，居家养老占 90%，社区养老占 7%，机构养老占 3%[2]。共调查 1,250 人。';
const spec: FigureSpec = {
  type: 'pie',
  caption: '养老方式构成',
  labels: ['居家养老', '社区养老', '机构养老'],
  series: [{ name: '占比', values: [90, 7, 3] }],
  unit: '%',
};

const item = (picture: '0' | '1'): OutlineItem => ({
  name: '现状分析',
  wordCount: 500,
  form: '0',
  formula: '0',
  code: '0',
  picture,
});

/** An LLM answering every structured request with `answer`, validated as the real adapter does. */
function fakeLlm(answer: unknown | (() => never)): LlmProvider & { calls: number } {
  const llm = {
    kind: 'openai' as const,
    calls: 0,
    modelFor: () => 'fake',
    chat: async () => {
      throw new Error('not used');
    },
    async structured(request: Parameters<LlmProvider['structured']>[0]) {
      llm.calls += 1;
      if (typeof answer === 'function') (answer as () => never)();
      const checked = request.schema.safeParse(answer);
      if (!checked.success) throw new LlmError('bad_output', 'did not pass the schema');
      return {
        value: checked.data,
        repairs: 0,
        model: 'fake',
        usage: { promptTokens: 1, completionTokens: 1 },
      };
    },
  };
  return llm as unknown as LlmProvider & { calls: number };
}

const facts = {
  area: 'dissertation' as const,
  topic: '养老',
  title: '养老服务研究',
  discipline: '',
  degree: '',
  language: 'zh' as const,
  targetWords: 6000,
  requirements: '',
};
const ask = (llm: LlmProvider, picture: '0' | '1' = '1', text = TEXT) =>
  figureForSection(llm, {
    facts,
    section: { path: '2', heading: '现状分析', item: item(picture) },
    text,
    userId: 'u',
    orderNo: null,
  });

describe('figure specs: only the numbers the text gives', () => {
  it('reads the numbers of a text, leaving citation marks out', () => {
    const found = numbersIn(TEXT);
    for (const n of [2023, 90, 7, 3, 1250]) expect(found.has(n)).toBe(true);
    expect(found.has(2)).toBe(false);
    expect(numbersIn('全角数字 １２ 与 4.5 万').has(12)).toBe(true);
  });

  it('accepts a spec charting the text’s numbers and refuses one with another number or a bad shape', () => {
    expect(figureProblem(spec, TEXT)).toBeNull();
    expect(figureProblem({ ...spec, series: [{ name: '占比', values: [91, 6, 3] }] }, TEXT)).toMatch(
      /not in text: 91, 6/,
    );
    expect(figureProblem({ ...spec, series: [{ name: '占比', values: [90, 7] }] }, TEXT)).toBe('invalid');
    expect(figureProblem({ ...spec, type: 'radar' }, TEXT)).toBe('invalid');
  });

  it('asks the LLM only where a picture is asked for, and falls back to the placeholder', async () => {
    const good = fakeLlm({ chart: spec });
    expect(await ask(good)).toEqual(spec);
    expect(await ask(good, '0')).toBeNull();
    expect(good.calls).toBe(1);
    // Numbers the text does not give, an answer that is not a spec, no data, a failing LLM: null.
    expect(
      await ask(fakeLlm({ chart: { ...spec, series: [{ name: '占比', values: [80, 15, 5] }] } })),
    ).toBeNull();
    expect(await ask(fakeLlm({ chart: { ...spec, labels: ['只有一个'] } }))).toBeNull();
    expect(await ask(fakeLlm({ chart: null }))).toBeNull();
    const failing = fakeLlm(() => {
      throw new LlmError('timeout', 'timed out');
    });
    expect(await ask(failing)).toBeNull();
    // A cancelled job stays cancelled.
    const aborted = fakeLlm(() => {
      throw new LlmError('aborted', 'aborted');
    });
    await expect(ask(aborted)).rejects.toThrow('aborted');
  });

  it('draws a chart as a PNG', async () => {
    const png = await renderChartPng({ ...spec, type: 'bar' });
    expect(await sharp(png).metadata()).toMatchObject({ format: 'png', ...CHART_SIZE });
  });
});

function writing(figure: FigureSpec | null): Writing {
  const now = new Date('2026-05-01T00:00:00Z');
  return {
    id: 'w1',
    userId: 'u',
    area: 'dissertation',
    topic: '养老',
    title: '养老服务研究',
    discipline: '',
    degree: '',
    language: 'zh',
    targetWords: 1000,
    requirements: '',
    templateId: 'general',
    outline: [
      { ...item('0'), name: '绪论' },
      { ...item('1'), name: '现状分析' },
    ],
    abstract: null,
    sources: [],
    sections: [
      { path: '1', heading: '绪论', level: 1, text: '引言。', removedCitations: 0 },
      { path: '2', heading: '现状分析', level: 1, text: TEXT, removedCitations: 0, figure },
    ],
    orderId: null,
    status: 'done',
    progress: 100,
    failureReason: null,
    freeOutline: false,
    outlinesGenerated: 1,
    revisionsUsed: 0,
    revisionsOrderId: null,
    unlimitedRevisions: false,
    revision: null,
    createdAt: now,
    updatedAt: now,
    finishedAt: now,
    hiddenAt: null,
  };
}

async function docxOf(w: Writing) {
  const files = unzipSync(
    new Uint8Array((await renderWritingDocx(w, { sandbox: false, now: new Date() })).bytes),
  );
  const xml = new TextDecoder().decode(files['word/document.xml']);
  return { files, xml, text: xml.replace(/<[^>]+>/g, '') };
}

describe('figures in the .docx', () => {
  it('embeds the chart as a picture with its numbered caption below it', async () => {
    const { files, xml, text } = await docxOf(writing(spec));
    const media = Object.keys(files).filter((f) => f.startsWith('word/media/'));
    expect(media).toHaveLength(1);
    expect(await sharp(Buffer.from(files[media[0]!]!)).metadata()).toMatchObject({ format: 'png' });
    const rels = new TextDecoder().decode(files['word/_rels/document.xml.rels']);
    expect(rels).toContain(media[0]!.replace('word/', ''));
    expect(xml).toMatch(/<w:drawing>.*<\/w:drawing>.*?<w:t[^>]*>图2-1 养老方式构成<\/w:t>/);
    expect(text).not.toContain('图片占位');
  });

  it('without a valid chart keeps the marked placeholder box and its caption', async () => {
    const { files, xml, text } = await docxOf(writing(null));
    expect(Object.keys(files).some((f) => f.startsWith('word/media/'))).toBe(false);
    expect(xml).not.toContain('<w:drawing>');
    expect(text).toContain('［图片占位：现状分析。请替换为你自己的图片］');
    expect(text).toContain('图2-1 现状分析');
  });
});
