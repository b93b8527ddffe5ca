// Revise in the report (issue 24) in a real browser: a student uploads a .docx with a passage
// copied from the library, opens the report, rewrites the flagged paragraph by hand in 在线修改 ·
// 实时复检, watches its rate and the document's 总文字复制比 fall (当前（修改后）beside the signed
// figures), saves a version, compares it with the original, and downloads the revised .docx with
// the headings' style kept and only the edited paragraph changed. Screenshots at 1366 and 390 px.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { unzipSync, zipSync } from 'fflate';
import { beforeAll, describe, expect, it } from 'vitest';
import { screenshot } from '../lib/browser.ts';
import { importLibrary, useJourney } from '../lib/journey.ts';
import { MANY_USERS_ENV } from '../lib/users.ts';

const SOURCE =
  '城市更新中的历史街区保护需要兼顾居民生活改善与传统风貌延续，单纯的大拆大建会破坏街巷肌理和社会网络。' +
  '以微更新为主的渐进式改造通过公众参与确定改造优先级，在保留原有建筑格局的前提下完善基础设施，被证明能够提高居民满意度。';
const OWN_1 =
  '本文以某市老城区为研究对象，结合实地调研与问卷数据，讨论社区治理在街区改造过程中的作用，并提出相应的政策建议。';
const OWN_2 = '研究发现，居民参与程度与改造后的满意度之间存在稳定联系，基层组织在其中承担了协调者的角色。';
const REWRITE =
  '笔者在三个街道走访时注意到，居民最在意的是自家门前的排水和照明，这些细小的工程往往比整片翻新更能赢得认可，也更少引起邻里纠纷。';

const W = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';
const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

function buildDocx(blocks: { text: string; heading?: boolean }[]): Uint8Array {
  const enc = new TextEncoder();
  const xml = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>';
  const body = blocks
    .map(
      (b) =>
        `<w:p>${b.heading ? '<w:pPr><w:pStyle w:val="Heading1"/></w:pPr>' : ''}<w:r><w:t xml:space="preserve">${esc(b.text)}</w:t></w:r></w:p>`,
    )
    .join('');
  return zipSync({
    '[Content_Types].xml': enc.encode(
      `${xml}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/><Override PartName="/word/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.styles+xml"/></Types>`,
    ),
    '_rels/.rels': enc.encode(
      `${xml}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>`,
    ),
    'word/_rels/document.xml.rels': enc.encode(
      `${xml}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/></Relationships>`,
    ),
    'word/styles.xml': enc.encode(
      `${xml}<w:styles xmlns:w="${W}"><w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/></w:style><w:style w:type="paragraph" w:styleId="Heading1"><w:name w:val="heading 1"/><w:basedOn w:val="Normal"/><w:pPr><w:outlineLvl w:val="0"/></w:pPr></w:style></w:styles>`,
    ),
    'word/document.xml': enc.encode(`${xml}<w:document xmlns:w="${W}"><w:body>${body}</w:body></w:document>`),
  });
}

const journey = useJourney('revise');
const { work } = journey;
const dataDir = join(work, 'data');

beforeAll(async () => {
  importLibrary(dataDir, work, [
    {
      id: 'urban-2022-001',
      title: '历史街区微更新与公众参与',
      authors: ['陈立'],
      year: 2022,
      source: '城市规划学刊',
      text: `${SOURCE}${SOURCE}`,
    },
  ]);
  await journey.start({ DATA_DIR: dataDir, ...MANY_USERS_ENV });
  // The shared 2-core machine under load: the import and the start take minutes at worst.
}, 480_000);

const percent = (s: string) => Number(/(\d+(?:\.\d+)?)%/.exec(s)?.[1] ?? Number.NaN);

describe('revise in the report journey', () => {
  it('rewrites a flagged paragraph in the report, sees the rates fall, saves and compares a version, downloads the .docx', {
    timeout: 480_000,
  }, async () => {
    const { page: p } = await journey.openAsNewUser('/check');
    const undergrad = p.locator('[data-goods-id="check_undergrad"]');
    await expect.poll(() => undergrad.innerText()).toContain('免费');
    await undergrad.click();
    const file = join(work, '历史街区.docx');
    writeFileSync(
      file,
      buildDocx([
        { text: '第一章 绪论', heading: true },
        { text: OWN_1 },
        { text: SOURCE },
        { text: '第二章 结论', heading: true },
        { text: OWN_2 },
      ]),
    );
    await p.locator('input[type=file]').setInputFiles(file);
    await p.getByLabel('论文题目').fill('历史街区更新研究');
    await p.getByLabel('作者').fill('王小明');
    await p.getByTestId('upload-submit').click();
    await p.getByTestId('start-free').click();
    await p.getByTestId('check-report').waitFor({ timeout: 90_000 });
    const signedRatio = percent(await p.getByTestId('report-ratio').innerText());
    expect(signedRatio).toBeGreaterThan(30);

    // Open the editor: the flagged paragraph is listed first.
    await p.getByTestId('revise-open').click();
    const workspace = p.getByTestId('revise-workspace');
    await workspace.waitFor();
    const first = p.getByTestId('revise-paragraph').first();
    expect(await first.innerText()).toContain(SOURCE.slice(0, 20));
    await first.click();
    const editor = p.getByTestId('revise-editor');
    await editor.waitFor();
    expect(await editor.innerText()).toContain('历史街区微更新与公众参与');
    await screenshot(p, 'revise-1-editor');

    // Rewrite it by hand; after the pause the paragraph and the document are re-checked.
    await p.getByTestId('revise-textarea').fill(REWRITE);
    await expect
      .poll(() => p.getByTestId('revise-paragraph-rate').innerText(), { timeout: 30_000 })
      .toContain('0.0%');
    await expect
      .poll(async () => percent(await p.getByTestId('revise-current-ratio').innerText()))
      .toBeLessThan(signedRatio);
    expect(await p.getByTestId('revise-paragraph-aigc').innerText()).toMatch(/AIGC指数 (\d+\.\d|未评分)/);
    expect(await p.getByTestId('revise-figures').innerText()).toContain('当前（修改后）');
    expect(await p.getByTestId('revise-edited').innerText()).toContain('第 3 段');
    await screenshot(p, 'revise-2-rechecked');

    // Save a version; compare it with the original.
    await p.getByRole('button', { name: '保存版本' }).click();
    await p.getByTestId('revise-version').first().waitFor();
    expect(await p.getByTestId('revise-version').first().innerText()).toContain('版本 1');
    const compare = await p.getByTestId('revise-compare').innerText();
    expect(compare).toContain('改动的段落（1）');
    expect(compare).toContain(REWRITE.slice(0, 10));

    // The revised .docx: the upload edited in place.
    const [download] = await Promise.all([
      p.waitForEvent('download'),
      p.getByTestId('revise-download').click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/修改稿\.docx$/);
    const saved = join(work, 'revised.docx');
    await download.saveAs(saved);
    const xml = new TextDecoder().decode(unzipSync(new Uint8Array(readFileSync(saved)))['word/document.xml']);
    expect(xml).toContain(REWRITE);
    expect(xml).not.toContain(SOURCE);
    expect(xml).toContain(OWN_2);
    expect(xml).toContain('<w:pStyle w:val="Heading1"/>');

    // Reloading keeps the working copy (saved as it was re-checked).
    await p.reload();
    await p.getByTestId('revise-open').click();
    await expect.poll(() => p.getByTestId('revise-edited').innerText()).toContain('第 3 段');
    await screenshot(p, 'revise-3-1366');
    await p.setViewportSize({ width: 390, height: 844 });
    await p.getByTestId('revise-paragraph').first().click();
    await p.getByTestId('revise-editor').waitFor();
    expect(Number(await p.evaluate('document.documentElement.scrollWidth'))).toBeLessThanOrEqual(390);
    await screenshot(p, 'revise-4-390');
  });
});
