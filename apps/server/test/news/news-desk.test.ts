import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ErrorCode, type StaffRoleName } from '@kyfw/contracts';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enqueue } from '../../src/jobs/queue.ts';
import { createWorker } from '../../src/jobs/worker.ts';
import { createStaffService } from '../../src/modules/console/staff.service.ts';
import { totpCode } from '../../src/modules/console/totp.ts';
import { purgeUnusedImagesJob } from '../../src/modules/news/news.module.ts';
import { buildOrdersApp, type Envelope, type OrdersTestApp, SECOND } from '../orders/orders-helper.ts';

const INDEX_HTML = `<!doctype html>
<html lang="zh-CN">
  <head>
    <meta name="description" content="默认描述" />
    <title>科研服务网</title>
    <!--kyfw-config-->
  </head>
  <body><div id="root"></div></body>
</html>`;

let t: OrdersTestApp;
let dist: string;
const accounts = new Map<StaffRoleName, { username: string; password: string; totpSecret: string }>();
const cookies = new Map<StaffRoleName, string>();

beforeAll(async () => {
  dist = await mkdtemp(path.join(os.tmpdir(), 'kyfw-news-web-'));
  await mkdir(path.join(dist, 'assets'));
  await writeFile(path.join(dist, 'index.html'), INDEX_HTML);
  t = await buildOrdersApp({ env: { WEB_DIST_DIR: dist, PUBLIC_BASE_URL: 'https://kyfw.example.cn' } });
  const staff = createStaffService({ db: t.db, scryptCost: 10, now: t.clock.now });
  for (const role of ['admin', 'editor', 'support', 'finance'] as const) {
    accounts.set(role, await staff.create({ username: `news-${role}`, role }));
  }
});

afterAll(async () => {
  await t.close();
  await rm(dist, { recursive: true, force: true });
});

async function login(role: StaffRoleName): Promise<string> {
  const known = cookies.get(role);
  if (known) return known;
  t.clock.advance(31 * SECOND);
  const a = accounts.get(role)!;
  const res = await t.app.inject({
    method: 'POST',
    url: '/kyfw/web/v1/admin/auth/login',
    payload: { username: a.username, password: a.password, totpCode: totpCode(a.totpSecret, t.clock.now()) },
  });
  expect(res.json().code).toBe(0);
  const cookie = String(res.headers['set-cookie']).split(';')[0]!;
  cookies.set(role, cookie);
  return cookie;
}

async function admin<T>(role: StaffRoleName | null, path: string, body: unknown = {}) {
  const res = await t.app.inject({
    method: 'POST',
    url: `/kyfw/web/v1/admin${path}`,
    headers: role ? { cookie: await login(role) } : {},
    payload: body as object,
  });
  return res.json() as Envelope<T>;
}

async function pub<T>(path: string, body: unknown = {}) {
  const res = await t.app.inject({
    method: 'POST',
    url: `/kyfw/web/v1/home${path}`,
    payload: body as object,
  });
  return res.json() as Envelope<T>;
}

function multipart(data: Buffer, filename = 'cover.png') {
  const boundary = '----kyfwnews';
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
    ),
    data,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

async function upload(role: StaffRoleName, data: Buffer) {
  const form = multipart(data);
  const res = await t.app.inject({
    method: 'POST',
    url: '/kyfw/web/v1/admin/news/images',
    headers: { ...form.headers, cookie: await login(role) },
    payload: form.payload,
  });
  return res.json() as Envelope<{
    id: string;
    src: string;
    srcset: string;
    ogSrc: string;
    width: number;
    height: number;
  }>;
}

const picture = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: { r: 30, g: 80, b: 145 } } })
    .png()
    .toBuffer();

const draft = {
  slug: 'guide/2026/desk-test',
  category: 'guide',
  title: '编辑台测试文章',
  summary: '这是一篇由编辑在运营后台撰写的文章。',
  author: '科研服务网编辑部',
  source: '',
  tags: ['测试', '编辑'],
  bodyHtml:
    '<h2>小标题</h2><p onclick="steal()">第一段<script>alert(1)</script></p><a href="javascript:alert(1)">链接</a>',
};

type Saved = { id: string; slug: string; status: string; bodyHtml: string; publishedAt: string | null };

describe('the news desk in the console', () => {
  it('lets only editors and admins in, and records the refusal', async () => {
    expect((await admin(null, '/articles/list')).code).toBe(ErrorCode.UNAUTHORIZED);
    const refused = await admin('support', '/articles/list');
    expect(refused.code).toBe(ErrorCode.FORBIDDEN);
    expect(refused.message).toContain('编辑');
    expect((await admin('finance', '/articles/save', draft)).code).toBe(ErrorCode.FORBIDDEN);
    const rows = await t.db
      .selectFrom('audit_log')
      .select(['username', 'outcome'])
      .where('action', '=', 'news.save')
      .execute();
    expect(rows).toContainEqual({ username: 'news-finance', outcome: 'refused' });
    expect((await admin('editor', '/articles/list')).code).toBe(0);
    expect((await admin('admin', '/articles/list')).code).toBe(0);
  });

  it('saves a draft with its body sanitised, keeps it off the site, then publishes and takes it down', async () => {
    const before = await pub<{ total: number }>('/article', {});
    const saved = await admin<Saved>('editor', '/articles/save', draft);
    expect(saved.code).toBe(0);
    expect(saved.data.status).toBe('draft');
    expect(saved.data.bodyHtml).toBe(
      '<h2>小标题</h2><p>第一段</p><a rel="noopener noreferrer nofollow">链接</a>',
    );
    // A draft is not served.
    expect((await pub('/articleContent', { slug: draft.slug })).code).toBe(ErrorCode.RESOURCE_NOT_FOUND);

    const published = await admin<Saved>('editor', '/articles/publish', { id: saved.data.id });
    expect(published.data.status).toBe('published');
    expect(published.data.publishedAt).toBe(t.clock.now().toISOString());
    // The cached list and article change at once.
    const after = await pub<{ total: number; list: { slug: string }[] }>('/article', {});
    expect(after.data.total).toBe(before.data.total + 1);
    expect(after.data.list[0]?.slug).toBe(draft.slug);
    const content = await pub<{ title: string; bodyHtml: string }>('/articleContent', { slug: draft.slug });
    expect(content.data.bodyHtml).not.toMatch(/script|onclick|javascript/);

    // An edit of a published article shows on the site at once.
    await admin('editor', '/articles/save', { ...draft, id: saved.data.id, title: '改过的标题' });
    expect((await pub<{ title: string }>('/articleContent', { slug: draft.slug })).data.title).toBe(
      '改过的标题',
    );

    const firstPublished = published.data.publishedAt;
    t.clock.advance(60 * SECOND);
    expect((await admin<Saved>('editor', '/articles/unpublish', { id: saved.data.id })).data.status).toBe(
      'draft',
    );
    expect((await pub('/articleContent', { slug: draft.slug })).code).toBe(ErrorCode.RESOURCE_NOT_FOUND);
    // Published again: the first publication time stays.
    const again = await admin<Saved>('editor', '/articles/publish', { id: saved.data.id });
    expect(again.data.publishedAt).toBe(firstPublished);

    const audit = await t.db
      .selectFrom('audit_log')
      .select(['action', 'target', 'before', 'after', 'outcome'])
      .where('username', '=', 'news-editor')
      .where('action', 'in', ['news.save', 'news.publish', 'news.unpublish'])
      .orderBy('id')
      .execute();
    expect(audit.map((a) => a.action)).toEqual([
      'news.save',
      'news.publish',
      'news.save',
      'news.unpublish',
      'news.publish',
    ]);
    expect(audit[2]?.before).toMatchObject({ title: draft.title });
    expect(audit[2]?.after).toMatchObject({ title: '改过的标题' });
    expect(audit[3]?.after).toMatchObject({ status: 'draft' });
  });

  it('refuses bad input in Chinese and changes nothing', async () => {
    const count = async () =>
      Number(
        (
          await t.db
            .selectFrom('articles')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const n = await count();
    const badSlug = await admin('editor', '/articles/save', { ...draft, slug: '政策/2026' });
    expect(badSlug.code).toBe(ErrorCode.VALIDATION);
    expect(badSlug.message).toContain('网址只能由小写字母');
    const taken = await admin('editor', '/articles/save', { ...draft, slug: 'guide/2026/read-check-report' });
    expect(taken.code).toBe(ErrorCode.CONFLICT);
    expect(taken.message).toBe('该网址已被其他文章使用，请换一个');
    const onlyScript = await admin('editor', '/articles/save', {
      ...draft,
      slug: 'guide/2026/only-script',
      bodyHtml: '<script>alert(1)</script><style>p{}</style>',
    });
    expect(onlyScript.code).toBe(ErrorCode.VALIDATION);
    expect(onlyScript.message).toContain('正文不能为空');
    const noCover = await admin('editor', '/articles/save', {
      ...draft,
      slug: 'guide/2026/no-cover',
      coverId: '0b6a3f7e-1111-4222-8333-944445555666',
    });
    expect(noCover.message).toBe('封面图片不存在，请重新上传');
    expect((await admin('editor', '/articles/publish', { id: '999999' })).code).toBe(
      ErrorCode.RESOURCE_NOT_FOUND,
    );
    expect(await count()).toBe(n);
  });

  it('resizes a cover to the breakpoints and densities it can fill, serves it for a year, and shows it', async () => {
    const cover = await upload('editor', await picture(2000, 1200));
    expect(cover.code).toBe(0);
    const widths = cover.data.srcset.split(', ').map((s) => Number(s.split(' ')[1]!.replace('w', '')));
    // 16:9 of 2000×1200 is 2000 wide: every width of 320…1536 ×1 and ×2 up to 2000.
    expect(widths).toEqual([320, 640, 768, 1024, 1280, 1536]);
    expect(cover.data.src).toBe(`/media/news/${cover.data.id}/w1024.webp`);
    expect([cover.data.width, cover.data.height]).toEqual([1536, 864]);

    const file = await t.app.inject({ method: 'GET', url: `/media/news/${cover.data.id}/w640.webp` });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('image/webp');
    expect(file.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(await sharp(file.rawPayload).metadata()).toMatchObject({
      format: 'webp',
      width: 640,
      height: 360,
    });
    const og = await t.app.inject({ method: 'GET', url: cover.data.ogSrc });
    expect(await sharp(og.rawPayload).metadata()).toMatchObject({ format: 'jpeg', width: 1200, height: 675 });
    expect(
      (await t.app.inject({ method: 'GET', url: `/media/news/${cover.data.id}/w999.webp` })).statusCode,
    ).toBe(404);
    expect(
      (await t.app.inject({ method: 'GET', url: `/media/news/${cover.data.id}/..%2f..%2fx` })).statusCode,
    ).toBe(404);

    const saved = await admin<Saved & { cover: { id: string } }>('editor', '/articles/save', {
      ...draft,
      slug: 'policy/2026/with-cover',
      category: 'policy',
      coverId: cover.data.id,
    });
    expect(saved.data.cover.id).toBe(cover.data.id);
    await admin('editor', '/articles/publish', { id: saved.data.id });
    const list = await pub<{ list: { slug: string; cover: { srcset: string } | null }[] }>('/article', {
      category: 'policy',
    });
    expect(list.data.list.find((a) => a.slug === 'policy/2026/with-cover')?.cover?.srcset).toBe(
      cover.data.srcset,
    );
    expect(list.data.list.find((a) => a.slug === 'policy/2025/aigc-labelling')?.cover).toBeNull();
  });

  it('refuses a file that is not an image, a tiny image and an oversized one', async () => {
    const text = await upload('editor', Buffer.from('not an image at all'));
    expect(text.code).toBe(ErrorCode.UNSUPPORTED_MEDIA_TYPE);
    expect(text.message).toBe('请上传 PNG、JPEG 或 WebP 格式的图片');
    const gif = await upload(
      'editor',
      Buffer.from('474946383961010001000000002c00000000010001000002', 'hex'),
    );
    expect(gif.code).toBe(ErrorCode.UNSUPPORTED_MEDIA_TYPE);
    const tiny = await upload('editor', await picture(200, 120));
    expect(tiny.message).toBe('图片宽度至少320像素');
    const huge = await upload('editor', Buffer.alloc(8 * 1024 * 1024 + 10, 1));
    expect(huge.code).toBe(ErrorCode.CHECK_FILE_TOO_LARGE);
    expect(huge.message).toBe('文件超过 8 MB，请压缩图片或拆分后上传');
    expect((await upload('support', await picture(400, 300))).code).toBe(ErrorCode.FORBIDDEN);
  });

  it('manages the landing page’s case photos, served from the database with an ETag', async () => {
    const image = await upload('editor', await picture(800, 450));
    const saved = await admin<{ id: string }>('editor', '/casePhotos/save', {
      imageId: image.data.id,
      title: '查重报告样例',
      caption: '网页版报告的逐段对照',
      linkPath: '/check',
      sortOrder: 1,
    });
    expect(saved.code).toBe(0);
    const first = await t.app.inject({ method: 'GET', url: '/kyfw/web/v1/home/casePhoto' });
    const photos = first.json().data as { title: string; linkPath: string; image: { srcset: string } }[];
    expect(photos).toEqual([
      expect.objectContaining({
        title: '查重报告样例',
        linkPath: '/check',
        image: expect.objectContaining({ srcset: image.data.srcset }),
      }),
    ]);
    const etag = first.headers.etag as string;
    const again = await t.app.inject({
      method: 'GET',
      url: '/kyfw/web/v1/home/casePhoto',
      headers: { 'if-none-match': etag },
    });
    expect(again.statusCode).toBe(304);

    const bad = await admin('editor', '/casePhotos/save', {
      imageId: image.data.id,
      title: 'x',
      linkPath: 'https://evil.example',
    });
    expect(bad.message).toBe('链接须为本站路径，以 / 开头（例如 /check）');
    await admin('editor', '/casePhotos/save', {
      id: saved.data.id,
      imageId: image.data.id,
      title: '查重报告样例',
      visible: false,
    });
    const hidden = await t.app.inject({
      method: 'GET',
      url: '/kyfw/web/v1/home/casePhoto',
      headers: { 'if-none-match': etag },
    });
    expect(hidden.statusCode).toBe(200);
    expect(hidden.json().data).toEqual([]);
    expect((await admin('editor', '/casePhotos/delete', { id: saved.data.id })).code).toBe(0);
    expect((await admin<unknown[]>('editor', '/casePhotos/list')).data).toEqual([]);
  });
});

describe('pages for search engines and share previews', () => {
  it('puts the article’s title, description and Open Graph tags into the HTML of its path', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/industryNews/guide/2026/read-check-report' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('<title>如何读懂一份论文查重报告 - 科研服务网</title>');
    expect(res.body).toMatch(/<meta name="description" content="总文字复制比、去除引用文献复制比[^"]*" \/>/);
    expect(res.body).not.toContain('默认描述');
    expect(res.body).toContain('<meta property="og:type" content="article" />');
    expect(res.body).toContain('<meta property="og:title" content="如何读懂一份论文查重报告" />');
    expect(res.body).toContain(
      '<meta property="og:url" content="https://kyfw.example.cn/industryNews/guide/2026/read-check-report" />',
    );
    expect(res.body).toContain(
      '<link rel="canonical" href="https://kyfw.example.cn/industryNews/guide/2026/read-check-report" />',
    );
    expect(res.body).toContain('<meta property="article:tag" content="全文对照" />');
    expect(res.body).toContain('__KYFW_CONFIG__');
  });

  it('escapes an article title that tries to close the tag, and shows the cover as og:image', async () => {
    const cover = await upload('editor', await picture(1280, 720));
    const saved = await admin<Saved>('editor', '/articles/save', {
      ...draft,
      slug: 'norms/2026/escape',
      category: 'norms',
      title: '"/><script>alert(1)</script>',
      coverId: cover.data.id,
    });
    await admin('editor', '/articles/publish', { id: saved.data.id });
    const res = await t.app.inject({ method: 'GET', url: '/industryNews/norms/2026/escape' });
    expect(res.body).not.toContain('<script>alert(1)');
    expect(res.body).toContain(
      '<meta property="og:title" content="&quot;/&gt;&lt;script&gt;alert(1)&lt;/script&gt;" />',
    );
    expect(res.body).toContain(
      `<meta property="og:image" content="https://kyfw.example.cn${cover.data.ogSrc}" />`,
    );
  });

  it('answers an unknown or withdrawn article path with a 404 status (the page shows the 404 page)', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/industryNews/policy/2099/no-such-article' });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.body).toContain('<meta name="robots" content="noindex" />');
    expect(res.body).toContain('__KYFW_CONFIG__');
    expect(
      (await t.app.inject({ method: 'GET', url: '/industryNews/guide/2026/desk-test' })).statusCode,
    ).toBe(200);
  });

  it('gives other pages their own title and keeps private ones out of the index', async () => {
    const check = await t.app.inject({ method: 'GET', url: '/check' });
    expect(check.body).toContain('<title>论文查重 - 科研服务网</title>');
    expect(check.body).toContain('<meta property="og:url" content="https://kyfw.example.cn/check" />');
    const user = await t.app.inject({ method: 'GET', url: '/user/info' });
    expect(user.statusCode).toBe(200);
    expect(user.body).toContain('<meta name="robots" content="noindex" />');
  });

  it('lists the public pages and published articles in sitemap.xml, and keeps crawlers out of the console', async () => {
    const sitemap = await t.app.inject({ method: 'GET', url: '/sitemap.xml' });
    expect(sitemap.statusCode).toBe(200);
    expect(sitemap.headers['content-type']).toBe('application/xml; charset=utf-8');
    expect(sitemap.body).toContain('<loc>https://kyfw.example.cn/check</loc>');
    expect(sitemap.body).toContain(
      '<loc>https://kyfw.example.cn/industryNews/guide/2026/read-check-report</loc>',
    );
    expect(sitemap.body).toContain('<loc>https://kyfw.example.cn/industryNews/norms/2026/escape</loc>');
    const saved = await admin<Saved>('editor', '/articles/save', { ...draft, slug: 'guide/2026/draft-only' });
    expect(saved.code).toBe(0);
    const again = await t.app.inject({
      method: 'GET',
      url: '/sitemap.xml',
      headers: { 'if-none-match': sitemap.headers.etag as string },
    });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');

    const robots = await t.app.inject({ method: 'GET', url: '/robots.txt' });
    expect(robots.body).toMatch(/^Disallow: \/admin$/m);
    expect(robots.body).toMatch(/^Disallow: \/user$/m);
    expect(robots.body).toMatch(/^Disallow: \/kyfw\/$/m);
    expect(robots.body).toContain('Sitemap: https://kyfw.example.cn/sitemap.xml');
  });
});

describe('unused uploads', () => {
  it('are deleted a week later by the nightly job; covers, case photos and images in bodies stay', async () => {
    const [cover, inBody, casePhoto, unused] = await Promise.all(
      [1, 2, 3, 4].map(async () => (await upload('editor', await picture(640, 360))).data),
    );
    const saved = await admin<Saved>('editor', '/articles/save', {
      ...draft,
      slug: 'guide/2026/images-kept',
      coverId: cover!.id,
      bodyHtml: `<p>正文</p><img src="${inBody!.src}" alt="">`,
    });
    expect(saved.data.bodyHtml).toContain(inBody!.src);
    await admin('editor', '/casePhotos/save', { imageId: casePhoto!.id, title: '保留' });
    const served = (image: { src: string }) => t.app.inject({ method: 'GET', url: image.src });
    expect((await served(unused!)).statusCode).toBe(200);

    // A week later (staff sessions have expired by then: log in again after this).
    t.clock.advance(8 * 24 * 60 * 60 * SECOND);
    cookies.clear();
    await enqueue(t.db, purgeUnusedImagesJob, {});
    const worker = createWorker({ db: t.db, definitions: [purgeUnusedImagesJob], services: t.root.services });
    expect(await worker.tick()).toHaveLength(1);
    await worker.stop();

    expect((await served(unused!)).statusCode).toBe(404);
    for (const kept of [cover!, inBody!, casePhoto!]) expect((await served(kept)).statusCode).toBe(200);
    const rows = await t.db.selectFrom('news_images').select('id').execute();
    expect(rows.map((r) => r.id)).not.toContain(unused!.id);
  });
});
