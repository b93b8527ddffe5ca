import { createPublicKey } from 'node:crypto';
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import {
  createPaymentProviders,
  listPaymentConfigProblems,
  type PaymentConfig,
  paymentConfigSchema,
} from '../../../src/providers/payment/index.ts';
import { fixtureKey, fixturePath } from './helpers.ts';

const APIV3 = 'kyfwTestOnlyApiV3Key0123456789AB';

const REAL_ENV = {
  WECHATPAY_MCHID: '1900009191',
  WECHATPAY_APPID: 'wxd678efh567hg6787',
  WECHATPAY_SERIAL_NO: '408B07E79B8269FEC3D5D3E6AB8ED163A6A380DB',
  WECHATPAY_PRIVATE_KEY_PATH: fixturePath('test-only-merchant-private.pem'),
  WECHATPAY_PUBLIC_KEY_PATH: fixturePath('test-only-platform-public.pem'),
  WECHATPAY_PUBLIC_KEY_ID: 'PUB_KEY_ID_0119000091912024050100000000000001',
  WECHATPAY_APIV3_KEY: APIV3,
  ALIPAY_APP_ID: '2021000123456789',
  ALIPAY_PRIVATE_KEY_PATH: fixturePath('test-only-merchant-private.pem'),
  ALIPAY_PUBLIC_KEY_PATH: fixturePath('test-only-platform-public.pem'),
  ALIPAY_SELLER_ID: '2088101106499364',
};

function parse(env: Record<string, string>): PaymentConfig {
  return paymentConfigSchema.parse(env);
}

async function failure(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('expected a failure');
}

describe('paymentConfigSchema', () => {
  it('needs nothing for the sandbox; blank means unset', () => {
    const config = parse({ WECHATPAY_MCHID: '  ', ALIPAY_GATEWAY: '' });
    expect(config.WECHATPAY_MCHID).toBeUndefined();
    expect(config.ALIPAY_GATEWAY).toBeUndefined();
    expect(listPaymentConfigProblems(config, 'sandbox')).toEqual([]);
  });

  it('lists every variable real providers miss', () => {
    expect(listPaymentConfigProblems(parse({}), 'real')).toEqual([
      'WECHATPAY_MCHID is required when PROVIDERS=real',
      'WECHATPAY_APPID is required when PROVIDERS=real',
      'WECHATPAY_SERIAL_NO is required when PROVIDERS=real',
      'WECHATPAY_PRIVATE_KEY_PATH is required when PROVIDERS=real',
      'WECHATPAY_PUBLIC_KEY_PATH is required when PROVIDERS=real',
      'WECHATPAY_PUBLIC_KEY_ID is required when PROVIDERS=real',
      'WECHATPAY_APIV3_KEY is required when PROVIDERS=real',
      'ALIPAY_APP_ID is required when PROVIDERS=real',
      'ALIPAY_PRIVATE_KEY_PATH is required when PROVIDERS=real',
      'ALIPAY_PUBLIC_KEY_PATH is required when PROVIDERS=real',
    ]);
  });

  it('never shows the APIv3 key: not in JSON, inspect, strings, nor problems', () => {
    const wrongLength = 'Sup3rSecretButTooShort';
    const config = parse({ ...REAL_ENV, WECHATPAY_APIV3_KEY: wrongLength });
    const shown = [JSON.stringify(config), inspect(config, { depth: 5 }), `${config.WECHATPAY_APIV3_KEY}`];
    const problems = listPaymentConfigProblems(config, 'real');
    expect(problems).toEqual([
      'WECHATPAY_APIV3_KEY must be the 32-character APIv3 key set in the merchant platform',
    ]);
    for (const text of [...shown, ...problems]) expect(text).not.toContain(wrongLength);
    expect(config.WECHATPAY_APIV3_KEY?.reveal()).toBe(wrongLength);
  });

  it('parses the sandbox retry schedule', () => {
    expect(parse({ PAY_SANDBOX_NOTIFY_RETRY_MS: '100, 200,3000' }).PAY_SANDBOX_NOTIFY_RETRY_MS).toEqual([
      100, 200, 3000,
    ]);
    expect(paymentConfigSchema.safeParse({ PAY_SANDBOX_NOTIFY_RETRY_MS: '1,x' }).success).toBe(false);
    expect(paymentConfigSchema.safeParse({ WECHATPAY_BASE_URL: 'ftp://x' }).success).toBe(false);
  });
});

describe('createPaymentProviders in real mode', () => {
  it('builds both adapters from key files, pointed at the real platforms by default', async () => {
    const urls: string[] = [];
    const providers = await createPaymentProviders(parse(REAL_ENV), {
      mode: 'real',
      publicBaseUrl: 'https://www.example.com',
      fetch: async (url) => {
        urls.push(String(url));
        return new Response('busy', { status: 503 });
      },
    });
    expect(providers.sandbox).toBeNull();
    expect(providers.wx.channel).toBe('wx');
    expect(providers.ali.channel).toBe('ali');
    await expect(providers.wx.query('KY20240501000001')).rejects.toMatchObject({ kind: 'UNAVAILABLE' });
    await expect(providers.ali.query('KY20240501000001')).rejects.toMatchObject({ kind: 'UNAVAILABLE' });
    expect(urls).toEqual([
      'https://api.mch.weixin.qq.com/v3/pay/transactions/out-trade-no/KY20240501000001?mchid=1900009191',
      'https://openapi.alipay.com/gateway.do',
    ]);
  });

  it('takes configured base URLs', async () => {
    const urls: string[] = [];
    const providers = await createPaymentProviders(
      parse({
        ...REAL_ENV,
        WECHATPAY_BASE_URL: 'https://wx.example.test/',
        ALIPAY_GATEWAY: 'https://openapi-sandbox.dl.alipaydev.com/gateway.do',
      }),
      {
        mode: 'real',
        publicBaseUrl: 'https://www.example.com',
        fetch: async (url) => {
          urls.push(String(url));
          return new Response('', { status: 502 });
        },
      },
    );
    await providers.wx.close('KY20240501000001').catch(() => undefined);
    await providers.ali.close('KY20240501000001').catch(() => undefined);
    expect(urls).toEqual([
      'https://wx.example.test/v3/pay/transactions/out-trade-no/KY20240501000001/close',
      'https://openapi-sandbox.dl.alipaydev.com/gateway.do',
    ]);
  });

  it('refuses to start without credentials, naming the variables', async () => {
    const message = await failure(
      createPaymentProviders(parse({}), { mode: 'real', publicBaseUrl: 'https://x.test' }),
    );
    expect(message).toContain('WECHATPAY_APIV3_KEY is required');
    expect(message).toContain('ALIPAY_PUBLIC_KEY_PATH is required');
  });

  it('reports unreadable and unusable key files by variable, never by content', async () => {
    const missing = await failure(
      createPaymentProviders(parse({ ...REAL_ENV, ALIPAY_PRIVATE_KEY_PATH: '/nonexistent/app.pem' }), {
        mode: 'real',
        publicBaseUrl: 'https://x.test',
      }),
    );
    expect(missing).toContain('ALIPAY_PRIVATE_KEY_PATH: cannot read /nonexistent/app.pem (ENOENT)');

    const swapped = await failure(
      createPaymentProviders(
        parse({ ...REAL_ENV, WECHATPAY_PRIVATE_KEY_PATH: fixturePath('test-only-merchant-public.pem') }),
        {
          mode: 'real',
          publicBaseUrl: 'https://x.test',
        },
      ),
    );
    expect(swapped).toContain(
      'WECHATPAY_PRIVATE_KEY_PATH / WECHATPAY_PUBLIC_KEY_PATH: invalid RSA private key',
    );
    expect(swapped).not.toMatch(/BEGIN|MII/);
  });

  it('accepts the bare base64 keys the Alipay key tool writes', async () => {
    const { mkdtemp, writeFile, rm } = await import('node:fs/promises');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const dir = await mkdtemp(join(tmpdir(), 'kyfw-alipay-keys-'));
    try {
      const bare = (pem: string) =>
        pem
          .replace(/[\s\S]*?-----BEGIN [A-Z ]+-----/, '')
          .replace(/-----END[\s\S]*/, '')
          .replace(/\s+/g, '');
      await writeFile(join(dir, 'app.txt'), bare(fixtureKey('merchant', 'private')));
      await writeFile(
        join(dir, 'alipay.txt'),
        bare(
          createPublicKey(fixtureKey('platform', 'private')).export({
            type: 'spki',
            format: 'pem',
          }) as string,
        ),
      );
      const providers = await createPaymentProviders(
        parse({
          ...REAL_ENV,
          ALIPAY_PRIVATE_KEY_PATH: join(dir, 'app.txt'),
          ALIPAY_PUBLIC_KEY_PATH: join(dir, 'alipay.txt'),
        }),
        { mode: 'real', publicBaseUrl: 'https://x.test' },
      );
      expect(providers.ali.channel).toBe('ali');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
