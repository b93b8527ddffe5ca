// The paper check in a real browser (issue 6): a small comparison library imported with the CLI
// before the server starts; a student uploads a .docx made here with a passage copied from it,
// sees the characters and the price, pays in the sandbox, watches the progress, reads the report
// (the copied passage red, its source beside it), downloads the PDF (it renders and carries the
// report number and the rate), verifies the report; another student uses the free check from
// binding WeChat on a .txt, comes back to the report by reloading, and finds it in 查重订单.
import { spawnSync } from 'node:child_process';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { TEMPLATED } from '../../../packages/aigc/test/samples.ts';
import { newContext, screenshot } from '../lib/browser.ts';
import { importLibrary, useJourney } from '../lib/journey.ts';
import { repoRoot } from '../lib/server.ts';
import { syntheticReport } from '../lib/synthetic-report.ts';
import { registerUser as registerTestUser } from '../lib/users.ts';

// ---------------------------------------------------------------------------------------------
// The library and the papers

/** Library documents: real-looking abstracts of three unrelated fields. */
const LIBRARY = [
  {
    id: 'edu-2022-001',
    title: '高等教育数字化转型与混合式教学效果研究',
    authors: ['陈静', '刘洋'],
    year: 2022,
    source: '中国高教研究',
    text: '高等教育数字化转型是当前教育改革的核心议题之一。随着在线学习平台的普及，高校教学模式正在经历深刻变革，混合式教学逐渐成为主流。研究发现，教师的信息化教学能力、学生的自主学习动机以及学校的技术支持水平共同决定了混合式教学的实际效果。为了提升教学质量，高校应当建立完善的教师培训体系，并通过学习分析技术对学生的学习过程进行持续跟踪与评价。与此同时，数字化转型也对教育公平提出了新的挑战，不同地区、不同类型高校之间的数字鸿沟可能进一步扩大。',
  },
  {
    id: 'agri-2021-014',
    title: '长期施肥对土壤微生物群落结构的影响',
    authors: ['李明', '王芳'],
    year: 2021,
    source: '农业科学学报',
    text: '土壤微生物群落结构的多样性对氮素循环具有重要影响。本研究通过连续十年的田间定位试验，测定了不同施肥处理下土壤细菌和真菌的组成变化。结果表明，长期施用有机肥能够显著提高土壤微生物多样性，并促进氮素的矿化与固定过程；单施化肥则导致部分功能菌群相对丰度下降。灌溉方式与温度湿度条件共同决定了微生物活性的季节变化规律。',
  },
  {
    id: 'traffic-2019-007',
    title: '城市公共交通服务质量评价方法',
    authors: ['赵强'],
    year: 2019,
    source: '交通运输研究',
    text: '公共交通服务质量评价是城市交通治理的重要基础工作。传统的评价方法主要依赖乘客满意度问卷调查，难以客观反映服务供给的真实水平。基于多源数据融合的评价框架能够综合考虑准点率、换乘便利性与车内拥挤程度等指标，从而为公交线网优化提供科学依据。',
  },
];

/** Copied word for word from the first library document. */
const COPIED =
  '随着在线学习平台的普及，高校教学模式正在经历深刻变革，混合式教学逐渐成为主流。研究发现，教师的信息化教学能力、学生的自主学习动机以及学校的技术支持水平共同决定了混合式教学的实际效果。';
/** Quoted with a citation from the second one. */
const QUOTED = '数字化转型也对教育公平提出了新的挑战';

function thesisBlocks(title: string): { text: string; heading?: boolean }[] {
  return [
    { text: title, heading: true },
    { text: '摘要', heading: true },
    {
      text: '本文围绕高校混合式教学的质量问题展开研究，结合问卷调查与访谈资料，分析影响教学效果的主要因素，并从教师发展、平台建设与评价改革三个方面提出改进建议。',
    },
    { text: '第1章 绪论', heading: true },
    {
      text: `近年来，我国高等教育规模持续扩大，教学质量保障成为社会关注的焦点。${COPIED}本文以某省三所本科院校为例，考察混合式教学的实施现状与存在的问题。`,
    },
    {
      text: '本研究的意义在于从学生体验出发重新审视混合式教学，弥补既有研究偏重技术与平台的不足，为高校制定教学改革政策提供经验证据。',
    },
    { text: '第2章 文献综述', heading: true },
    {
      text: `已有研究从课程设计、师生互动和评价方式等角度讨论了混合式教学。正如陈静所指出的，“${QUOTED}”[1]。也有学者认为，线上线下教学的有机融合需要制度层面的保障，而不仅仅是技术层面的投入。`,
    },
    { text: '第3章 研究设计', heading: true },
    {
      text: '本研究采用问卷调查与半结构化访谈相结合的方法，共回收有效问卷六百余份，访谈教师二十名。问卷涵盖课程满意度、学习投入和能力提升三个维度，采用李克特五点量表计分。',
    },
    { text: '第4章 结论', heading: true },
    {
      text: '研究表明，教师培训、平台稳定性和过程性评价是提升混合式教学质量的关键。高校应当完善激励机制，鼓励教师开展教学创新，同时关注不同学生群体的学习需求。',
    },
    { text: '参考文献', heading: true },
    { text: '[1] 陈静, 刘洋. 高等教育数字化转型与混合式教学效果研究[J]. 中国高教研究, 2022.' },
  ];
}

/** A zip with stored (uncompressed) entries and UTF-8 names: enough for a .docx. */
function storedZip(files: Record<string, string>): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const [name, content] of Object.entries(files)) {
    const nameBytes = Buffer.from(name, 'utf8');
    const data = Buffer.from(content, 'utf8');
    const crc = crc32(data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6);
    local.writeUInt16LE(0, 8);
    local.writeUInt16LE(0, 10);
    local.writeUInt16LE(0x21, 12);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(nameBytes.length, 26);
    local.writeUInt16LE(0, 28);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(0, 10);
    central.writeUInt16LE(0, 12);
    central.writeUInt16LE(0x21, 14);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(nameBytes.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, nameBytes, data);
    centrals.push(central, nameBytes);
    offset += local.length + nameBytes.length + data.length;
  }
  const cd = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(Object.keys(files).length, 8);
  end.writeUInt16LE(Object.keys(files).length, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, end]);
}

const W = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';
const escapeXml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** A minimal Word document with Heading 1 chapters. */
function buildDocx(blocks: { text: string; heading?: boolean }[]): Buffer {
  const body = blocks
    .map((b) => {
      const style = b.heading ? '<w:pPr><w:pStyle w:val="Heading1"/></w:pPr>' : '';
      return `<w:p>${style}<w:r><w:t xml:space="preserve">${escapeXml(b.text)}</w:t></w:r></w:p>`;
    })
    .join('');
  const xml = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>';
  return storedZip({
    '[Content_Types].xml': `${xml}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/><Override PartName="/word/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.styles+xml"/></Types>`,
    '_rels/.rels': `${xml}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>`,
    'word/_rels/document.xml.rels': `${xml}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/></Relationships>`,
    'word/styles.xml': `${xml}<w:styles xmlns:w="${W}"><w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/></w:style><w:style w:type="paragraph" w:styleId="Heading1"><w:name w:val="heading 1"/><w:basedOn w:val="Normal"/><w:pPr><w:outlineLvl w:val="0"/></w:pPr></w:style></w:styles>`,
    'word/document.xml': `${xml}<w:document xmlns:w="${W}"><w:body>${body}</w:body></w:document>`,
  });
}

// ---------------------------------------------------------------------------------------------
// Server, browser, users

const journey = useJourney('check');
const work = journey.work;
const dataDir = join(work, 'data');
const API = '/kyfw/web/v1';

interface Envelope<T> {
  code: number;
  message: string;
  data: T;
}

async function api<T>(path: string, body: unknown, token = ''): Promise<Envelope<T>> {
  const res = await fetch(`${journey.server.baseUrl}${API}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', terminal: 'PC', token },
    body: JSON.stringify(body ?? {}),
  });
  return (await res.json()) as Envelope<T>;
}

/** Registers a new account by phone (sandbox SMS) and returns its token (docs/api/accounts.md). */
async function registerUser(): Promise<string> {
  return (await registerTestUser(journey.server.baseUrl)).token;
}

/** Binds WeChat to the account through the sandbox scan: the first binding grants the free check. */
async function bindWeChat(token: string): Promise<void> {
  const qr = await api<{ ticket: string; userId: string }>('/weixin/wx/getBindingRCode', {}, token);
  expect(qr.code).toBe(0);
  const scan = await fetch(`${journey.server.baseUrl}/__dev/wechat/scan`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ticket: qr.data.ticket, openId: `e2e_check_${Date.now()}` }),
  });
  expect(((await scan.json()) as Envelope<unknown>).code).toBe(0);
  await expect
    .poll(
      async () =>
        (await api<{ wxOpenId: string | null }>('/getUserInfo', { userId: qr.data.userId }, token)).data
          ?.wxOpenId,
    )
    .toBeTruthy();
  const info = await api<{ entitlements: { kind: string; available: boolean }[] }>('/getUserInfo', {}, token);
  expect(info.data.entitlements.some((e) => e.kind === 'free_check' && e.available)).toBe(true);
}

async function openAs(token: string, path: string): Promise<Page> {
  return (await journey.openAs({ token }, path)).page;
}

/** The phases the progress panel showed while the check ran (sampled every 100 ms). */
async function watchProgress(p: Page): Promise<string[]> {
  const seen: string[] = [];
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    // The phase first: a quick check is done before the first look, and then the panel shows
    // its finished state beside the report.
    const reportShown = (await p.getByTestId('check-report').count()) > 0;
    const phase = await p
      .getByTestId('check-progress')
      .getAttribute('data-phase', { timeout: 500 })
      .catch(() => null);
    if (phase && seen[seen.length - 1] !== phase) seen.push(phase);
    if (reportShown) break;
    await p.waitForTimeout(100);
  }
  return seen;
}

beforeAll(async () => {
  // The library first: imported with the CLI into the DATA_DIR the server will use.
  expect(importLibrary(dataDir, work, LIBRARY)).toContain('新增 3 篇');
  // A private copy of the built app: a build running meanwhile in the shared tree must not swap
  // the files under a journey (the app reloads itself when it sees a new build).
  const dist = join(work, 'dist');
  cpSync(join(repoRoot, 'apps/web/dist'), dist, { recursive: true });
  // Several students register from one address in a minute here: lift the per-IP SMS limits.
  await journey.start({
    WEB_DIST_DIR: dist,
    DATA_DIR: dataDir,
    SMS_IP_MAX_PER_MINUTE: '100',
    SMS_IP_MAX_PER_HOUR: '1000',
    SMS_IP_CAPTCHA_AFTER: '100000',
    SMS_IP_MAX_PER_DAY: '1000',
  });
});

// ---------------------------------------------------------------------------------------------

describe('paper check journeys', () => {
  it('uploads a .docx with 同时检测AIGC, pays both parts in one order, watches the progress, reads the report and its AIGC section, downloads and verifies it', async () => {
    const token = await registerUser();
    const p = await openAs(token, '/check');

    // The products with prices per 1,000 characters and limits; the upload area states its limit.
    const cards = p.locator('.ck-goods__card');
    // 本科, 硕博, 期刊 and AIGC检测 (issue 14)
    await expect.poll(() => cards.count()).toBe(4);
    const undergrad = p.locator('[data-goods-id="check_undergrad"]');
    expect(await undergrad.innerText()).toContain('2.00');
    expect(await undergrad.innerText()).toContain('元/千字');
    expect(await undergrad.innerText()).toContain('单篇上限 30万 字');
    expect(await p.locator('.ck-upload').innerText()).toContain('单个文件不超过 30 MB');
    // The library promise: off by default, stated.
    const optIn = p.getByRole('checkbox', { name: '允许将本文加入比对库' });
    expect(await optIn.isChecked()).toBe(false);
    expect(await p.locator('.ck-upload__promise').innerText()).toContain('不会被加入比对库');
    // The account got a free check at registration (本科 goods): a journal check is paid.
    await p.locator('[data-goods-id="check_journal"]').click();

    // Upload the .docx with its title and author.
    const docx = join(work, '混合式教学研究.docx');
    // One assistant-style paragraph before the references, for the AIGC section to shade.
    const blocks = thesisBlocks('高校混合式教学质量提升路径研究');
    blocks.splice(
      blocks.findIndex((b) => b.text === '参考文献'),
      0,
      { text: TEMPLATED },
    );
    writeFileSync(docx, buildDocx(blocks));
    await p.locator('input[type=file]').setInputFiles(docx);
    await expect.poll(() => p.getByTestId('picked-file').innerText()).toContain('混合式教学研究.docx');
    await p.getByLabel('论文题目').fill('高校混合式教学质量提升路径研究');
    await p.getByLabel('作者').fill('王小明');
    // 同时检测AIGC (issue 14, decision 0022): the AIGC goods' price from the server, off by default.
    const addon = p.getByRole('checkbox', { name: '同时检测AIGC（+¥1.00/千字）' });
    expect(await addon.isChecked()).toBe(false);
    await addon.check();
    expect(await p.getByTestId('aigc-addon').innerText()).toContain('查重报告中增加“AIGC检测”部分');
    await p.getByTestId('aigc-addon').scrollIntoViewIfNeeded();
    await screenshot(p, 'check-aigc-addon-option');
    await p.getByTestId('upload-submit').click();

    // Characters and price before paying; the URL now names the order (reload resumes).
    const order = p.getByTestId('check-order');
    await order.waitFor();
    const chars = Number((await p.getByTestId('check-chars').innerText()).replace(/\D/g, ''));
    expect(chars).toBeGreaterThan(300);
    expect(chars).toBeLessThan(1000);
    // Both parts priced by the server, the total due in one order.
    expect(await p.getByTestId('check-amount').innerText()).toBe('¥3.50');
    const parts = await p.getByTestId('check-parts').innerText();
    expect(parts).toContain('期刊职称论文查重');
    expect(parts).toContain('¥2.50');
    expect(parts).toContain('AIGC检测');
    expect(parts).toContain('¥1.00');
    expect(await order.innerText()).toContain('2.50 元/千字');
    expect(await order.innerText()).toContain('不加入比对库');
    expect(new URL(p.url()).searchParams.get('orderId')).toBeTruthy();

    // Pay through the payment dialog and the sandbox's 模拟支付 page.
    await p.getByTestId('go-pay').click();
    const dialog = p.locator('.pay-dialog');
    await expect.poll(() => dialog.getByTestId('pay-amount').innerText()).toBe('¥3.50');
    const sandboxLink = dialog.getByRole('link', { name: /模拟支付/ });
    await sandboxLink.waitFor();
    const payPage = await p.context().newPage();
    await payPage.goto((await sandboxLink.getAttribute('href')) ?? '');
    await payPage.getByRole('button', { name: /支付/ }).first().click();
    await expect.poll(() => payPage.locator('body').innerText()).toContain('支付成功');
    await payPage.close();

    // The progress panel while the check runs, then the report.
    const phases = await watchProgress(p);
    expect(phases.at(-1)).toBe('done');
    expect(
      phases.every((ph) => ['queued', 'parsing', 'detecting', 'comparing', 'reporting', 'done'].includes(ph)),
    ).toBe(true);
    const report = p.getByTestId('check-report');
    await report.waitFor({ timeout: 30_000 });

    // Figures, the notice, the source list.
    const ratioText = await p.getByTestId('report-ratio').innerText();
    const rate = /(\d+\.\d)%/.exec(ratioText)?.[1];
    expect(Number(rate)).toBeGreaterThan(0);
    const reportText = await report.innerText();
    for (const label of [
      '总文字复制比',
      '去除引用文献复制比',
      '单篇最大文字复制比',
      '重复字数',
      '总字数',
      '各章节检测结果',
      '相似文献列表',
    ])
      expect(reportText).toContain(label);
    expect(reportText).toContain('程序自动比对的结果');
    expect(reportText).toContain('不作为学术不端的最终认定依据');
    expect(await p.getByTestId('report-source').first().innerText()).toContain(LIBRARY[0]!.title);

    // The copied passage is marked red; clicking it shows its source beside it.
    const red = p.locator('.rt-mark--verbatim').filter({ hasText: '混合式教学逐渐成为主流' });
    await red.first().waitFor();
    expect((await red.allInnerTexts()).join('')).toContain('教师的信息化教学能力');
    await red.first().click();
    const panel = p.getByTestId('match-panel');
    await panel.waitFor();
    expect(await panel.innerText()).toContain('文字复制');
    expect(await panel.innerText()).toContain(LIBRARY[0]!.title);
    expect(await p.getByTestId('source-passage').innerText()).toContain('混合式教学逐渐成为主流');
    // The cited quotation is green.
    expect(await p.locator('.rt-mark--quoted').allInnerTexts()).toContainEqual(
      expect.stringContaining('教育公平'),
    );

    // The AIGC section of the same report: the index (or 未见明显AI生成特征) as a reference value,
    // the paragraphs shaded by index with the reasons on hover.
    const aigc = p.getByTestId('aigc-section');
    await aigc.scrollIntoViewIfNeeded();
    const aigcText = await aigc.innerText();
    expect(aigcText).toContain('AIGC检测（参考值）');
    expect(aigcText).toContain('AIGC指数（参考值）');
    expect(aigcText).toContain('仅供参考');
    const aigcIndex = await aigc.getByTestId('aigc-index').innerText();
    expect(aigcIndex).toMatch(/^(\d+\.\d|未见明显AI生成特征|文字过短，无法给出可靠判断)$/);
    // The detector scores runs of lines: the assistant-style lines are in a flagged one.
    const flagged = aigc.locator('.aigc-text__para[data-flagged="true"]').filter({ hasText: TEMPLATED });
    expect(await flagged.count()).toBe(1);
    expect(await flagged.getAttribute('style')).toMatch(/background: rgba\(207, 19, 34, 0\.\d+\)/);
    await flagged.hover();
    const tip = p.locator('.ant-tooltip:not(.ant-tooltip-hidden)');
    await expect.poll(() => tip.innerText()).toMatch(/AIGC指数 \d+\.\d（参考值）/);
    await aigc.getByTestId('aigc-index').scrollIntoViewIfNeeded();
    await p.mouse.wheel(0, -120);
    await p.screenshot({ path: join(repoRoot, 'apps/e2e/test-results/check-aigc-section.png') });
    await flagged.scrollIntoViewIfNeeded();
    await flagged.hover();
    await expect.poll(() => tip.innerText()).toContain('参考值');
    await p.screenshot({ path: join(repoRoot, 'apps/e2e/test-results/check-aigc-section-hover.png') });

    // The PDF: a PDF with the report number and the rate in its text, and it renders.
    const reportNo = await p.getByTestId('report-no').innerText();
    expect(reportNo).toMatch(/^BG\d{8}[0-9A-Z]{8}$/);
    const [download] = await Promise.all([
      p.waitForEvent('download'),
      p.getByRole('button', { name: 'PDF 检测报告' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/检测报告\.pdf$/);
    const pdfFile = join(work, 'report.pdf');
    await download.saveAs(pdfFile);
    expect(readFileSync(pdfFile).subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const text = spawnSync('pdftotext', ['-layout', pdfFile, '-'], { encoding: 'utf8' });
    expect(text.status).toBe(0);
    expect(text.stdout).toContain(reportNo);
    expect(text.stdout).toContain(`${rate}%`);
    // …and the AIGC section, its figures labelled 参考值.
    const flat = text.stdout.replace(/\s+/g, '');
    expect(flat).toContain('AIGC检测结果（参考值）');
    expect(flat).toContain(`AIGC指数（参考值）：${aigcIndex}`);
    const png = spawnSync('pdftoppm', [
      '-png',
      '-r',
      '40',
      '-f',
      '1',
      '-l',
      '1',
      pdfFile,
      join(work, 'page'),
    ]);
    expect(png.status).toBe(0);

    // Verification: the link carries number and code; the page shows the signed summary.
    await p.getByRole('link', { name: /核验报告真伪/ }).click();
    const verified = p.getByTestId('verify-result');
    await verified.waitFor();
    expect(await verified.innerText()).toContain('报告真实有效');
    expect(await verified.innerText()).toContain(reportNo);
    expect(await verified.innerText()).toContain(`${rate}%`);
    expect(await verified.innerText()).toContain('王**');
    // The add-on is signed with the report.
    expect(await p.getByTestId('verify-aigc-addon').innerText()).toContain(aigcIndex);
    // A wrong code gets a clear message.
    await p.getByLabel('验证码').fill('AAAAAAAA');
    await p.getByRole('button', { name: /核验/ }).click();
    await expect.poll(() => p.getByTestId('verify-result').innerText()).toContain('无法确认报告真伪');
    expect(await p.getByTestId('verify-result').innerText()).toContain('报告编号或验证码不正确');
  }, 240_000);

  it('uses the free check from binding WeChat on a .txt, resumes the report after a reload and lists it in 查重订单', async () => {
    const token = await registerUser();
    await bindWeChat(token);
    const p = await openAs(token, '/check');
    const undergrad = p.locator('[data-goods-id="check_undergrad"]');
    await expect.poll(() => undergrad.innerText()).toContain('你有 1 次免费查重');

    const txt = join(work, 'thesis.txt');
    writeFileSync(
      txt,
      thesisBlocks('混合式教学调查报告')
        .map((b) => b.text)
        .join('\n'),
    );
    await p.locator('input[type=file]').setInputFiles(txt);
    await p.getByLabel('作者').fill('李华');
    // The title is not filled in with the file name ("thesis"): the student types it.
    expect(await p.getByLabel('论文题目').inputValue()).toBe('');
    await p.getByLabel('论文题目').fill('混合式教学调查报告');
    await p.getByTestId('upload-submit').click();

    await p.getByTestId('check-order').waitFor();
    expect(await p.getByTestId('check-amount').innerText()).toBe('¥0.00');
    expect(await p.getByTestId('check-order').innerText()).toContain('使用免费查重');
    await p.getByTestId('start-free').click();
    await watchProgress(p);
    await p.getByTestId('check-report').waitFor({ timeout: 30_000 });
    const rate = await p.getByTestId('report-ratio').innerText();

    // Reloading /check?orderId=… shows the report again.
    const orderId = new URL(p.url()).searchParams.get('orderId');
    expect(orderId).toBeTruthy();
    await p.reload();
    await p.getByTestId('check-report').waitFor();
    expect(await p.getByTestId('report-ratio').innerText()).toBe(rate);

    // 查重订单: the check with its status, rate and actions; 查看报告 opens the report page.
    await p.goto('/user/order/check');
    const row = p.getByTestId('check-orders').locator('tr', { hasText: '混合式教学调查报告' });
    await row.waitFor();
    const rowText = await row.innerText();
    expect(rowText).toContain('免费');
    expect(rowText).toContain('已完成');
    expect(rowText).toContain(/(\d+\.\d%)/.exec(rate)?.[1] ?? '%');
    await row.getByRole('button', { name: '查看报告' }).click();
    await expect.poll(() => new URL(p.url()).pathname).toBe(`/check/report/${orderId}`);
    await p.getByTestId('check-report').waitFor();

    // The free check is used: the card no longer offers it.
    await p.goto('/check');
    await expect.poll(() => p.locator('[data-goods-id="check_undergrad"]').innerText()).toContain('2.00');
    expect(await p.locator('[data-goods-id="check_undergrad"]').innerText()).not.toContain(
      '你有 1 次免费查重',
    );
  }, 240_000);

  // How fast it is shown and answers is measured by `npm run bench` (scripts/bench-report-page.ts).
  it('shows an 80,000-character thesis with 600 marks, one element per run, a click opening its source (report answer served by the test)', async () => {
    const token = await registerUser();
    const model = syntheticReport(80_000, 600);
    const baseUrl = journey.server.baseUrl;
    const context = await newContext(journey.browser, baseUrl);
    await context.addCookies([{ name: 'token', value: token, url: baseUrl }]);
    await context.route('**/kyfw/web/v1/freeCheck/report', (route) =>
      route.fulfill({
        contentType: 'application/json',
        body: JSON.stringify({ code: 0, message: 'success', data: model }),
      }),
    );
    const p = journey.track(await context.newPage());
    await p.goto('/');
    await p.locator('footer').waitFor();
    await p.goto(`/check/report/${model.orderId}`);
    await p.locator('.rt-mark').first().waitFor();

    // One element per marked run and per paragraph, never per character.
    const counts = {
      marks: await p.locator('.rt-text mark').count(),
      elements: await p.locator('.rt-text *').count(),
      chars: ((await p.locator('.rt-text').textContent()) ?? '').length,
    };
    // A match across a paragraph break is one run per paragraph.
    expect(counts.marks).toBeGreaterThanOrEqual(600);
    expect(counts.marks).toBeLessThan(1200);
    expect(counts.chars).toBeGreaterThan(75_000);
    expect(counts.elements).toBeLessThan(2000);

    // A mark near the end: scrolled to, clicked, its source beside it at once.
    const last = p.locator('.rt-mark[data-m="599"]');
    await last.scrollIntoViewIfNeeded();
    await last.click();
    await expect.poll(() => p.getByTestId('match-panel').innerText()).toContain('第 600 / 600 处');
    expect(await p.getByTestId('source-passage').innerText()).toContain('来源599');
  }, 120_000);
});
