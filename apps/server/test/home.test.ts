import { API_PREFIX } from '@kyfw/contracts';
import { DEFAULT_FRIEND_LINKS, DEFAULT_SITE_SETTINGS } from '@kyfw/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHomeService } from '../src/modules/home/home.service.ts';
import { buildTestApp, type TestApp } from './helper.ts';

const HOME_INFO = `${API_PREFIX}/home/homeInfo`;

describe('GET /home/homeInfo', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  it('returns the seeded web info and friend links in the envelope', async () => {
    const res = await t.app.inject({ method: 'GET', url: HOME_INFO, headers: { terminal: 'PC', token: '' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('application/json');
    expect(res.json()).toEqual({
      code: 0,
      message: 'success',
      data: {
        webInfo: {
          name: DEFAULT_SITE_SETTINGS.name,
          contactPhone: DEFAULT_SITE_SETTINGS.contact_phone,
          companyAddress: DEFAULT_SITE_SETTINGS.company_address,
          qrCode: DEFAULT_SITE_SETTINGS.qr_code,
          recordNumber: DEFAULT_SITE_SETTINGS.record_number,
          copyright: DEFAULT_SITE_SETTINGS.copyright,
        },
        friendLinkList: DEFAULT_FRIEND_LINKS,
        // What registration gives; only the one-to-one service does not exist yet.
        benefits: [
          { kind: 'free_check', available: true },
          { kind: 'free_aigc_detection', available: true },
          { kind: 'ai_writing_trial', available: true },
          { kind: 'online_support', available: false },
        ],
      },
    });
  });

  it('serves the footer QR image the seeded qrCode points at', async () => {
    const info = (await t.app.inject({ method: 'GET', url: HOME_INFO })).json() as {
      data: { webInfo: { qrCode: string } };
    };
    const res = await t.app.inject({ method: 'GET', url: info.data.webInfo.qrCode });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.rawPayload.subarray(0, 8)).toEqual(
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    );
    expect(res.rawPayload.length).toBeGreaterThan(200);
  });

  it('reads what is in the database, friend links in sort order', async () => {
    await t.db
      .updateTable('site_settings')
      .set({ name: '测试学术网', record_number: '沪ICP备2025123456号' })
      .execute();
    await t.db
      .insertInto('friend_links')
      .values({ name: '排第一', url: 'https://first.example.cn', sort_order: 0 })
      .execute();

    const service = createHomeService({ db: t.db });
    const info = await service.getHomeInfo();
    expect(info.webInfo.name).toBe('测试学术网');
    expect(info.webInfo.recordNumber).toBe('沪ICP备2025123456号');
    expect(info.friendLinkList[0]).toEqual({ name: '排第一', url: 'https://first.example.cn' });
    expect(info.friendLinkList).toHaveLength(DEFAULT_FRIEND_LINKS.length + 1);
  });
});

describe('home service cache', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  it('serves from memory within the TTL, reloads after it or on invalidate', async () => {
    let now = 1_000_000;
    const service = createHomeService({ db: t.db, ttlMs: 30_000, now: () => now });
    const rename = (name: string) => t.db.updateTable('site_settings').set({ name }).execute();

    expect((await service.getHomeInfo()).webInfo.name).toBe(DEFAULT_SITE_SETTINGS.name);
    await rename('新名字');
    now += 29_000;
    expect((await service.getHomeInfo()).webInfo.name).toBe(DEFAULT_SITE_SETTINGS.name);
    now += 2_000;
    expect((await service.getHomeInfo()).webInfo.name).toBe('新名字');

    await rename('再改一次');
    service.invalidate();
    expect((await service.getHomeInfo()).webInfo.name).toBe('再改一次');
  });

  it('shares one database read between concurrent misses', async () => {
    let reads = 0;
    const counting = t.db.withPlugin({
      transformQuery(args) {
        reads += 1;
        return args.node;
      },
      transformResult: async (args) => args.result,
    });
    const service = createHomeService({ db: counting });
    await Promise.all(Array.from({ length: 20 }, () => service.getHomeInfo()));
    // One read of site_settings and one of friend_links.
    expect(reads).toBe(2);
  });

  it('returns empty web info rather than failing when the settings row is missing', async () => {
    await t.db.deleteFrom('site_settings').execute();
    const info = await createHomeService({ db: t.db }).getHomeInfo();
    expect(info.webInfo).toEqual({
      name: '',
      contactPhone: '',
      companyAddress: '',
      qrCode: '',
      recordNumber: '',
      copyright: '',
    });
  });
});
