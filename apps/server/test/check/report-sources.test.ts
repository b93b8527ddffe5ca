import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildCheckApp,
  type CheckTestApp,
  call,
  checkStatus,
  download,
  getReport,
  grantFreeCheck,
  newUser,
  runCheckJobs,
  seedLibrary,
  upload,
} from './check-helper.ts';
import { buildDocx, buildThesis, libraryText } from './fixtures.ts';
import { pdfText } from './pdf-text.ts';

// What a report says of its sources (issue 12): what the record has — title, authors, where it was
// published, year, discipline, collection — 题名缺失 where it has no title, never the import file's
// name; and 全文对照: each copied passage beside the source passage, with the source's metadata, in
// the PDF and the HTML report.

let t: CheckTestApp;
const titled = libraryText(611, 1500);
const untitled = libraryText(612, 1500);
const fromTitled = titled.slice(200, 380).replace(/\n/g, '');
const fromUntitled = untitled.slice(400, 560).replace(/\n/g, '');
const thesis = buildThesis({ seed: 61, chars: 6000, planted: [fromTitled, fromUntitled] });
let token: string;
let orderId: string;

beforeAll(async () => {
  t = await buildCheckApp();
  await seedLibrary(t, [
    {
      id: 'papers:1',
      title: '城市道路交通拥堵治理对策研究',
      authors: ['周明', '吴芳'],
      year: 2022,
      source: '交通运输工程学报',
      discipline: '交通运输工程',
      collection: 'journal',
      text: titled,
    },
    // As an older import wrote a record without title or source: the file's name as its source.
    { id: 'csl_papers:7', title: null, source: 'csl_papers', text: untitled },
  ]);
  const user = await newUser(t);
  token = user.token;
  await grantFreeCheck(t, user.userId);
  const up = await upload(t, token, { bytes: buildDocx(thesis.blocks), name: '交通.docx' });
  orderId = up.data.orderId;
  expect((await call(t, '/freeCheck/payFee', { orderId }, { token })).code).toBe(0);
  await runCheckJobs(t);
  expect((await checkStatus(t, token, orderId)).data.checkStatus).toBe('done');
});

afterAll(() => t.close());

describe('the report’s sources', () => {
  it('show what the record has, 题名缺失 without a title, never the import file’s name', async () => {
    const report = (await getReport(t, token, orderId)).data;
    const byId = new Map(report.sources.map((s) => [s.id, s]));
    expect(byId.get('papers:1')).toMatchObject({
      title: '城市道路交通拥堵治理对策研究',
      titleMissing: false,
      authors: ['周明', '吴芳'],
      year: 2022,
      source: '交通运输工程学报',
      discipline: '交通运输工程',
      collection: 'journal',
    });
    expect(byId.get('csl_papers:7')).toMatchObject({
      title: '题名缺失',
      titleMissing: true,
      source: null,
      collection: 'journal',
    });
    expect(JSON.stringify(report.sources)).not.toContain('csl_papers"');
  });

  it('the PDF and the HTML report have 全文对照: each passage beside its source’s, with its metadata', async () => {
    const report = (await getReport(t, token, orderId)).data;
    const pdf = (await pdfText((await download(t, token, orderId, 'pdf')).rawPayload)).text;
    const flat = pdf.replace(/\s/g, '');
    expect(flat).toContain('全文对照');
    expect(flat).toContain('原文内容');
    expect(flat).toContain('片段1');
    // The source side: title and details of each source, and its passage.
    expect(flat).toContain('[1]');
    expect(flat).toContain('周明，吴芳；交通运输工程学报；2022；交通运输工程；学术期刊库');
    expect(flat).toContain('题名缺失');
    for (const m of report.matches)
      expect(flat).toContain(m.sourcePassage.text.replace(/\s/g, '').slice(0, 40));
    expect(pdf).not.toContain('csl_papers；');

    const html = (await download(t, token, orderId, 'html')).body;
    expect(html).toContain('<h2>全文对照</h2>');
    expect(html).toContain('周明，吴芳；交通运输工程学报；2022；交通运输工程；学术期刊库');
    for (const m of report.matches) {
      expect(html).toContain(report.text.slice(m.start, m.end).slice(0, 40));
      expect(html).toContain(m.sourcePassage.text.slice(0, 40));
    }
  });
});
