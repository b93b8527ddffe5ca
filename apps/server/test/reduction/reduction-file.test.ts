import { Document, HeadingLevel, Packer, Paragraph, Table, TableCell, TableRow, TextRun } from 'docx';
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildCheckApp,
  type CheckTestApp,
  call,
  newUser,
  payCheckOrder,
  seedLibrary,
} from '../check/check-helper.ts';
import { buildScannedPdf } from '../check/fixtures.ts';
import { R, runRewriteJobs, submitFile } from './reduction-helper.ts';

// /submitFile: an uploaded document through the check's extraction; a .docx comes back from
// /download with its headings, tables, run formatting and other parts, only the rewritten
// paragraphs' text changed. Bad files are refused in Chinese with nothing created.

let t: CheckTestApp;
const SOURCE =
  '研究表明，随着互联网技术的不断发展，在线教育平台的用户规模显著扩大，因此提高教学质量成为平台发展的重要问题。' +
  '通过对平台数据进行分析，可以发现学习者的参与程度对学习效果具有重要影响，平台需要采用有效的方法促进学习者持续参与。';
const TAIL = '2020年全国在线教育用户达到3.42亿人，占网民整体的34.6%[1]。';

beforeAll(async () => {
  t = await buildCheckApp();
  await seedLibrary(t, [
    {
      id: 'lib-f1',
      text: SOURCE.repeat(3),
      title: '在线教育平台学习者参与研究',
      authors: ['李明'],
      year: 2021,
      source: '教育研究',
    },
  ]);
});
afterAll(async () => {
  await t.close();
});

async function thesisDocx(): Promise<Uint8Array> {
  const doc = new Document({
    sections: [
      {
        children: [
          new Paragraph({ heading: HeadingLevel.HEADING_1, children: [new TextRun('第一章 绪论')] }),
          // One paragraph in two runs: the first bold.
          new Paragraph({
            children: [
              new TextRun({ text: SOURCE.slice(0, 20), bold: true }),
              new TextRun(SOURCE.slice(20) + TAIL),
            ],
          }),
          new Table({
            rows: [
              new TableRow({
                children: [
                  new TableCell({ children: [new Paragraph('年份')] }),
                  new TableCell({ children: [new Paragraph('用户数')] }),
                ],
              }),
              new TableRow({
                children: [
                  new TableCell({ children: [new Paragraph('2020')] }),
                  new TableCell({ children: [new Paragraph('3.42亿')] }),
                ],
              }),
            ],
          }),
          new Paragraph({ heading: HeadingLevel.HEADING_2, children: [new TextRun('1.1 研究意义')] }),
        ],
      },
    ],
  });
  return new Uint8Array(await Packer.toBuffer(doc));
}

describe('降重 of an uploaded document', () => {
  it('refuses a scanned PDF in Chinese and creates no order', async () => {
    const { token } = await newUser(t);
    const res = await submitFile(t, token, { bytes: buildScannedPdf(), name: 'scan.pdf' });
    expect(res.code).not.toBe(0);
    expect(res.message).toMatch(/扫描件/);
    const list = await call<{ list: unknown[] }>(t, `${R}/getMyWeightReductionOrder`, {}, { token });
    expect(list.data.list).toHaveLength(0);
  });

  it('returns the .docx with its structure kept and only the rewritten paragraph changed', async () => {
    const { token } = await newUser(t);
    const original = await thesisDocx();
    const sub = await submitFile(t, token, { bytes: original, name: '在线教育.docx' });
    expect(sub.code).toBe(0);
    await payCheckOrder(t, token, sub.data.orderId);
    await runRewriteJobs(t);
    const res = await t.app.inject({
      method: 'POST',
      url: `/kyfw/web/v1${R}/download`,
      headers: { token },
      payload: { reductionId: sub.data.reductionId },
    });
    expect(res.statusCode).toBe(200);
    const before = unzipSync(original);
    const after = unzipSync(new Uint8Array(res.rawPayload));
    expect(Object.keys(after).sort()).toEqual(Object.keys(before).sort());
    for (const name of Object.keys(before)) {
      if (name === 'word/document.xml') continue;
      expect(after[name], name).toEqual(before[name]);
    }
    const xml = new TextDecoder().decode(after['word/document.xml']);
    const oldXml = new TextDecoder().decode(before['word/document.xml']);
    expect(xml).toContain('【沙箱示例】');
    expect(xml).toContain('34.6%[1]');
    expect(xml).not.toContain(SOURCE.slice(20, 60));
    // Headings, the table and the bold run's properties are still there.
    expect(xml.match(/w:pStyle w:val="Heading1"/g)).toHaveLength(
      oldXml.match(/w:pStyle w:val="Heading1"/g)!.length,
    );
    expect(xml.match(/<w:tbl>/g)).toHaveLength(1);
    expect(xml).toContain('3.42亿</w:t>');
    expect(xml).toContain('<w:b/>');
    expect(xml).toContain('1.1 研究意义');
  });
});
