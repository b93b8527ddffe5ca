// Issue 22, inputs that ended in 1000 (internal error): lone UTF-16 surrogates in text stored as
// JSON, `HTTPS://` in a friend link, a PNG with a bad CRC, a 300-character file name without a
// title. Each answers 1001 with a Chinese message, or is accepted sanely — never 1000.
import { ErrorCode, type StaffRoleName } from '@kyfw/contracts';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStaffService } from '../src/modules/console/staff.service.ts';

const SURROGATE_MESSAGE = '输入内容含有无法识别的字符（不成对的 UTF-16 代理项），请删除后重试';

import { buildCheckApp, type CheckTestApp, call, newUser } from './check/check-helper.ts';
import { buildDocx } from './check/fixtures.ts';
import { multipart } from './commission/commission-helper.ts';
import { consoleCalls } from './console/console-helper.ts';
import { newOrder } from './orders/orders-helper.ts';
import { importSmallLibrary } from './small-library.ts';

let t: CheckTestApp;
let calls: ReturnType<typeof consoleCalls>;
let user: { token: string; userId: string };
const cookies = new Map<StaffRoleName, string>();

beforeAll(async () => {
  t = await buildCheckApp();
  await importSmallLibrary(t);
  calls = consoleCalls(t);
  user = await newUser(t);
  const staff = createStaffService({ db: t.db, scryptCost: 10, now: t.clock.now });
  for (const role of ['admin', 'editor'] as const)
    cookies.set(role, await calls.cookieOf(await staff.create({ username: `input-${role}`, role })));
});
afterAll(() => t.close());

const surrogate = { code: ErrorCode.VALIDATION, message: SURROGATE_MESSAGE, data: null };
const PARAGRAPHS = '城市交通治理是现代城市发展的重要议题，涉及道路规划与公共交通。'.repeat(20);

describe('a lone UTF-16 surrogate in text stored as JSON', () => {
  it('is refused with 1001 in the user forms: commission form, reduction title', async () => {
    const high = '\ud800';
    const low = '\udc00';
    expect(
      await call(
        t,
        '/commission/submit',
        {
          service: 'tech_search',
          title: `面向城市交通的研究${high}`,
          form: { projectName: `城市交通${low}`, keywords: ['交通', `治理${high}`] },
        },
        { token: user.token },
      ),
    ).toEqual(surrogate);
    expect(
      await call(
        t,
        '/weightReduction/submitContent',
        { kind: 'reduction', title: `降重${high}标题`, text: PARAGRAPHS },
        { token: user.token },
      ),
    ).toEqual(surrogate);
    // (A multipart field cannot carry one: its bytes are UTF-8, where a lone surrogate reads as U+FFFD.)
    // The surrogate pair of a real character (𠀀, U+20000) is text, not a lone surrogate.
    const fine = await call<{ title: string }>(
      t,
      '/weightReduction/submitContent',
      { kind: 'reduction', title: '降重𠀀标题', text: PARAGRAPHS },
      { token: user.token },
    );
    expect(fine.code).toBe(0);
  });

  it('is refused with 1001 in the console: refund reason, article tags, audit and library search filters', async () => {
    const admin = cookies.get('admin')!;
    const order = await newOrder(t, user.userId);
    const cases: [string, unknown][] = [
      ['/refunds/create', { orderNo: order.orderNo, reason: '\udfff重复支付' }],
      [
        '/articles/save',
        {
          slug: 'guide/2026/surrogate',
          category: 'guide',
          title: '标题',
          summary: '摘要',
          author: '编辑部',
          tags: ['测试', '标签\ud83d'],
          bodyHtml: '<p>正文</p>',
        },
      ],
      ['/audit/list', { action: 'site.\ud800' }],
      ['/library/search', { text: '交通\udc00' }],
    ];
    for (const [path, body] of cases) {
      const { res, body: answer } = await calls.post(path, body, admin);
      expect(res.statusCode).toBe(200);
      expect({ path, answer }).toEqual({ path, answer: surrogate });
    }
  });
});

describe('other inputs that ended in 1000', () => {
  it('HTTPS:// in capitals in a friend link is an ordinary https link', async () => {
    const saved = await calls.post<{ url: string }>(
      '/site/linkSave',
      { name: '中国知网', url: 'HTTPS://WWW.CNKI.NET/Index', sortOrder: 1 },
      cookies.get('editor')!,
    );
    expect(saved.body).toMatchObject({ code: 0 });
    const home = await t.app.inject({ method: 'GET', url: '/kyfw/web/v1/home/homeInfo' });
    const links = (home.json() as { data: { friendLinkList: { name: string; url: string }[] } }).data
      .friendLinkList;
    expect(links).toContainEqual({ name: '中国知网', url: 'https://www.cnki.net/Index' });
  });

  it('a PNG with a bad CRC as a news image is refused as an unreadable image', async () => {
    const png = await sharp({ create: { width: 1600, height: 900, channels: 3, background: '#3366aa' } })
      .png()
      .toBuffer();
    for (const corrupt of [
      // The image data's checksum, then the header's.
      (b: Buffer) => {
        const at = b.indexOf('IDAT');
        b[at + 4 + b.readUInt32BE(at - 4)]! ^= 0xff;
      },
      (b: Buffer) => {
        b[29]! ^= 0xff;
      },
    ]) {
      const bad = Buffer.from(png);
      corrupt(bad);
      const form = multipart({}, { bytes: bad, name: 'cover.png' });
      const res = await t.app.inject({
        method: 'POST',
        url: '/kyfw/web/v1/admin/news/images',
        headers: { 'content-type': form.contentType, cookie: cookies.get('editor')! },
        payload: form.payload,
      });
      const answer = res.json() as { code: number; message: string };
      expect(answer.code).not.toBe(ErrorCode.INTERNAL);
      expect(answer.code).not.toBe(0);
      expect(answer.message).toMatch(/图片/);
    }
  });

  it('a 300-character file name without a title on the reduction upload: the title is its first 200 characters', async () => {
    const name = `${'城市交通治理研究'.repeat(37)}交通治理`; // 300 characters
    expect([...name]).toHaveLength(300);
    const docx = buildDocx([{ text: PARAGRAPHS }, { text: PARAGRAPHS }]);
    const body = multipart({ kind: 'reduction' }, { bytes: docx, name: `${name}.docx` });
    const res = await t.app.inject({
      method: 'POST',
      url: '/kyfw/web/v1/weightReduction/submitFile',
      remoteAddress: '10.23.0.1',
      headers: { token: user.token, 'content-type': body.contentType },
      payload: body.payload,
    });
    const answer = res.json() as { code: number; data: { reductionId: string } };
    expect(answer.code).toBe(0);
    const list = await call<{ list: { title: string }[] }>(
      t,
      '/weightReduction/getMyWeightReductionOrder',
      {},
      { token: user.token },
    );
    expect(list.data.list.map((r) => r.title)).toContain(name.slice(0, 200));
  });
});
