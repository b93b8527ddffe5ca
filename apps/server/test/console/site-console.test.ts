import { ErrorCode, type FriendLinkAdmin, type SiteInfo } from '@kyfw/contracts';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStaffService } from '../../src/modules/console/staff.service.ts';
import { buildOrdersApp, type OrdersTestApp } from '../orders/orders-helper.ts';
import { consoleCalls } from './console-helper.ts';

let t: OrdersTestApp;
let calls: ReturnType<typeof consoleCalls>;
const cookies = { admin: '', editor: '', finance: '', support: '', fulfilment: '' };

beforeAll(async () => {
  t = await buildOrdersApp();
  calls = consoleCalls(t);
  const staff = createStaffService({ db: t.db, scryptCost: 10, now: t.clock.now });
  for (const role of ['admin', 'editor', 'finance', 'support', 'fulfilment'] as const) {
    cookies[role] = await calls.cookieOf(await staff.create({ username: `site-${role}`, role }));
  }
});

afterAll(async () => {
  await t.close();
});

/** What the public footer gets (GET /home/homeInfo). */
const homeInfo = async () => {
  const res = await t.app.inject({ method: 'GET', url: '/kyfw/web/v1/home/homeInfo' });
  return (res.json() as { data: { webInfo: SiteInfo; friendLinkList: { name: string; url: string }[] } })
    .data;
};

const info: SiteInfo = {
  name: '科研服务网',
  contactPhone: '400-800-1234',
  companyAddress: '北京市海淀区学院路 30 号',
  qrCode: '/images/wechat-qr.png',
  recordNumber: '京ICP备12345678号-1',
  copyright: '© 2026 科研服务网 版权所有',
};

function multipart(data: Buffer, filename = 'qr.png') {
  const boundary = '----kyfwsite';
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
    ),
    data,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

async function uploadQr(cookie: string, data: Buffer) {
  const { payload, headers } = multipart(data);
  const res = await t.app.inject({
    method: 'POST',
    url: '/kyfw/web/v1/admin/site/qrUpload',
    headers: { ...headers, cookie },
    payload,
  });
  return res.json() as { code: number; message: string; data: { url: string } | null };
}

describe('site info and friend links', () => {
  it('the public footer comes from the database, and an editor’s change shows in it at once', async () => {
    const got = await calls.post<{ webInfo: SiteInfo; friendLinks: FriendLinkAdmin[] }>(
      '/site/get',
      {},
      cookies.editor,
    );
    expect(got.body.code).toBe(0);
    expect(got.body.data!.webInfo).toEqual((await homeInfo()).webInfo);
    await homeInfo(); // cached now
    const saved = await calls.post('/site/save', info, cookies.editor);
    expect(saved.body).toMatchObject({ code: 0, message: '网站信息已保存，页脚立即显示新内容' });
    expect((await homeInfo()).webInfo).toEqual(info);
    const [audit] = await calls.auditRows('site.save');
    expect(audit).toMatchObject({ username: 'site-editor', outcome: 'ok', after: info });
    expect(audit!.before).toEqual(got.body.data!.webInfo);
  });

  it('refuses bad site info with a Chinese message and changes nothing', async () => {
    const cases: [Partial<Record<keyof SiteInfo, string>>, string][] = [
      [{ name: ' ' }, '请填写网站名称'],
      [{ name: '名'.repeat(51) }, '网站名称不能超过50个字'],
      [{ contactPhone: 'call me' }, '联系电话只能包含数字、空格和 + - ( )，5–30 位'],
      [{ qrCode: 'javascript:alert(1)' }, '二维码须为上传的图片或 http:// / https:// 开头的图片网址'],
      [{ copyright: '' }, '请填写版权信息'],
    ];
    for (const [patch, message] of cases) {
      const res = await calls.post('/site/save', { ...info, ...patch }, cookies.admin);
      expect(res.body, JSON.stringify(patch)).toMatchObject({ code: ErrorCode.VALIDATION, message });
    }
    expect((await homeInfo()).webInfo).toEqual(info);
  });

  it('friend links: add, change, delete; only http(s) addresses; unknown ids refused', async () => {
    const added = await calls.post<FriendLinkAdmin>(
      '/site/linkSave',
      { name: '中国知网', url: 'https://www.cnki.net/', sortOrder: -5 },
      cookies.editor,
    );
    expect(added.body).toMatchObject({
      code: 0,
      message: '友情链接已保存',
      data: { name: '中国知网', sortOrder: -5 },
    });
    const id = added.body.data!.id;
    expect((await homeInfo()).friendLinkList[0]).toEqual({ name: '中国知网', url: 'https://www.cnki.net/' });
    for (const url of ['javascript:alert(1)', 'ftp://example.com/', 'www.cnki.net', 'data:text/html,x']) {
      const bad = await calls.post('/site/linkSave', { id, name: '中国知网', url }, cookies.editor);
      expect(bad.body, url).toMatchObject({
        code: ErrorCode.VALIDATION,
        message: '链接地址须为 http:// 或 https:// 开头的完整网址',
      });
    }
    expect(
      (await calls.post('/site/linkSave', { id, name: '', url: 'https://x.cn' }, cookies.editor)).body
        .message,
    ).toBe('请填写链接名称');
    const changed = await calls.post(
      '/site/linkSave',
      { id, name: '知网', url: 'http://cnki.net/', sortOrder: -5 },
      cookies.editor,
    );
    expect(changed.body.code).toBe(0);
    expect((await homeInfo()).friendLinkList[0]).toEqual({ name: '知网', url: 'http://cnki.net/' });
    const [audit] = await calls.auditRows('site.linkSave');
    expect(audit).toMatchObject({ before: { name: '中国知网' }, after: { name: '知网' } });
    const missing = await calls.post(
      '/site/linkSave',
      { id: '999999', name: 'x', url: 'https://x.cn' },
      cookies.editor,
    );
    expect(missing.body).toMatchObject({ code: ErrorCode.RESOURCE_NOT_FOUND, message: '友情链接不存在' });
    expect((await calls.post('/site/linkDelete', { id }, cookies.editor)).body).toMatchObject({
      code: 0,
      message: '友情链接已删除',
    });
    expect((await homeInfo()).friendLinkList.some((l) => l.name === '知网')).toBe(false);
    expect((await calls.post('/site/linkDelete', { id }, cookies.editor)).body).toMatchObject({
      code: ErrorCode.RESOURCE_NOT_FOUND,
      message: '友情链接不存在',
    });
    expect((await calls.post('/site/linkDelete', { id: 'abc' }, cookies.editor)).body.code).toBe(
      ErrorCode.VALIDATION,
    );
  });

  it('a QR image is uploaded as a whole square PNG and served; anything else is refused', async () => {
    const photo = await sharp({ create: { width: 600, height: 300, channels: 3, background: '#123456' } })
      .jpeg()
      .toBuffer();
    const up = await uploadQr(cookies.editor, photo);
    expect(up).toMatchObject({ code: 0, message: '二维码已上传，保存网站信息后生效' });
    const url = up.data!.url;
    expect(url).toMatch(/^\/media\/site\/qr\/[0-9a-f-]{36}\.png$/);
    const served = await t.app.inject({ method: 'GET', url });
    expect(served.statusCode).toBe(200);
    expect(await sharp(served.rawPayload).metadata()).toMatchObject({
      format: 'png',
      width: 480,
      height: 480,
    });
    expect((await calls.post('/site/save', { ...info, qrCode: url }, cookies.editor)).body.code).toBe(0);
    expect((await homeInfo()).webInfo.qrCode).toBe(url);
    const text = await uploadQr(cookies.editor, Buffer.from('not an image at all'));
    expect(text).toMatchObject({
      code: ErrorCode.UNSUPPORTED_MEDIA_TYPE,
      message: '二维码须为 PNG、JPEG 或 WebP 图片',
    });
    expect((await t.app.inject({ method: 'GET', url: '/media/site/qr/..%2Fsecret.png' })).statusCode).toBe(
      404,
    );
  });

  it('refuses finance, support and fulfilment, and callers without a session', async () => {
    for (const role of ['finance', 'support', 'fulfilment'] as const) {
      for (const [path, body] of [
        ['/site/get', {}],
        ['/site/save', info],
        ['/site/linkSave', { name: 'x', url: 'https://x.cn' }],
        ['/site/linkDelete', { id: '1' }],
      ] as const) {
        expect((await calls.post(path, body, cookies[role])).body.code, `${role} ${path}`).toBe(
          ErrorCode.FORBIDDEN,
        );
      }
      expect((await uploadQr(cookies[role], Buffer.from('x'))).code).toBe(ErrorCode.FORBIDDEN);
    }
    expect((await calls.post('/site/save', info)).body.code).toBe(ErrorCode.UNAUTHORIZED);
    const refused = (await calls.auditRows('site.save')).filter(
      (r) => r.outcome === 'refused' && (r.detail as { reason?: string }).reason === 'role',
    );
    expect(refused.map((r) => r.username).sort()).toEqual([
      'site-finance',
      'site-fulfilment',
      'site-support',
    ]);
  });
});
