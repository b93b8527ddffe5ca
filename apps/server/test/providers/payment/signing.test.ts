import { createPublicKey } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  buildSignContent,
  extractResponseNode,
  NOTIFY_SIGN_EXCLUDE,
  REQUEST_SIGN_EXCLUDE,
} from '../../../src/providers/payment/alipay.crypto.ts';
import {
  createAlipayProvider,
  createWechatPayProvider,
  PaymentNotificationError,
  type PaymentProvider,
} from '../../../src/providers/payment/index.ts';
import {
  loadPrivateKey,
  signSha256WithRsa,
  verifySha256WithRsa,
} from '../../../src/providers/payment/rsa.ts';
import {
  buildAuthorization,
  buildRequestSignMessage,
  buildResponseSignMessage,
  decryptResource,
  parseAuthorization,
} from '../../../src/providers/payment/wechatpay.crypto.ts';
import { fixtureKey, vectors } from './helpers.ts';

// Vectors: fixtures/vectors.json, computed by fixtures/generate-vectors.py with the openssl CLI and
// Python's `cryptography` — not with the code under test.

const merchantPrivate = loadPrivateKey(fixtureKey('merchant', 'private'));
const merchantPublic = createPublicKey(fixtureKey('merchant', 'public'));
const platformPublic = createPublicKey(fixtureKey('platform', 'public'));

const WX_REQUEST_BODY =
  '{"appid":"wxd678efh567hg6787","mchid":"1900009191","description":"论文查重-维普","out_trade_no":"KY20240501000001","time_expire":"2024-05-01T22:00:00+08:00","notify_url":"https://www.example.com/kyfw/web/v1/pay/notify/wx","amount":{"total":1990,"currency":"CNY"}}';
const WX_TIMESTAMP = '1714561200';
const WX_NONCE = '593BEC0C930BF1AFEB40B4A08C8FB242';
const WX_NOTIFY_TIMESTAMP = 1714567013;
const WX_NOTIFY_NONCE = 'A3F8B0C1D2E3F4A5B6C7D8E9F0A1B2C3';
const WX_PUB_KEY_ID = 'PUB_KEY_ID_0119000091912024050100000000000001';
const WX_APIV3_KEY = 'kyfwTestOnlyApiV3Key0123456789AB';

function wechat(overrides: { mchid?: string; appid?: string; apiV3Key?: string; nowSeconds?: number } = {}) {
  return createWechatPayProvider(
    {
      mchid: overrides.mchid ?? '1900009191',
      appid: overrides.appid ?? 'wxd678efh567hg6787',
      merchantSerialNo: '408B07E79B8269FEC3D5D3E6AB8ED163A6A380DB',
      merchantPrivateKey: fixtureKey('merchant', 'private'),
      platformPublicKeys: { [WX_PUB_KEY_ID]: fixtureKey('platform', 'public') },
      apiV3Key: overrides.apiV3Key ?? WX_APIV3_KEY,
    },
    { now: () => (overrides.nowSeconds ?? WX_NOTIFY_TIMESTAMP + 2) * 1000 },
  );
}

function wxNotificationHeaders(overrides: Record<string, string> = {}) {
  return {
    'wechatpay-serial': WX_PUB_KEY_ID,
    'wechatpay-timestamp': String(WX_NOTIFY_TIMESTAMP),
    'wechatpay-nonce': WX_NOTIFY_NONCE,
    'wechatpay-signature': vectors.wxNotifySignature!,
    'wechatpay-signature-type': 'WECHATPAY2-SHA256-RSA2048',
    'content-type': 'application/json',
    ...overrides,
  };
}

function expectNotificationError(
  provider: PaymentProvider,
  input: Parameters<PaymentProvider['verifyNotification']>[0],
) {
  try {
    provider.verifyNotification(input);
  } catch (error) {
    expect(error).toBeInstanceOf(PaymentNotificationError);
    return (error as PaymentNotificationError).reason;
  }
  throw new Error('the notification was accepted');
}

describe('WeChat Pay v3 request signing (WECHATPAY2-SHA256-RSA2048)', () => {
  it('builds the message and signature of a POST exactly as the fixed vector', () => {
    const message = buildRequestSignMessage(
      'POST',
      '/v3/pay/transactions/native',
      WX_TIMESTAMP,
      WX_NONCE,
      WX_REQUEST_BODY,
    );
    expect(message).toBe(
      `POST\n/v3/pay/transactions/native\n${WX_TIMESTAMP}\n${WX_NONCE}\n${WX_REQUEST_BODY}\n`,
    );
    expect(signSha256WithRsa(message, merchantPrivate)).toBe(vectors.wxRequestSignature);
  });

  it('signs a GET with its query string and an empty body line', () => {
    const message = buildRequestSignMessage(
      'GET',
      '/v3/pay/transactions/out-trade-no/KY20240501000001?mchid=1900009191',
      WX_TIMESTAMP,
      WX_NONCE,
      '',
    );
    expect(signSha256WithRsa(message, merchantPrivate)).toBe(vectors.wxGetSignature);
  });

  it('writes and reads the Authorization header', () => {
    const header = buildAuthorization({
      mchid: '1900009191',
      nonce: WX_NONCE,
      signature: vectors.wxRequestSignature!,
      timestamp: WX_TIMESTAMP,
      serialNo: '408B07E79B8269FEC3D5D3E6AB8ED163A6A380DB',
    });
    expect(header).toBe(
      `WECHATPAY2-SHA256-RSA2048 mchid="1900009191",nonce_str="${WX_NONCE}",signature="${vectors.wxRequestSignature}",timestamp="${WX_TIMESTAMP}",serial_no="408B07E79B8269FEC3D5D3E6AB8ED163A6A380DB"`,
    );
    expect(parseAuthorization(header)).toEqual({
      mchid: '1900009191',
      nonce: WX_NONCE,
      signature: vectors.wxRequestSignature,
      timestamp: WX_TIMESTAMP,
      serialNo: '408B07E79B8269FEC3D5D3E6AB8ED163A6A380DB',
    });
    expect(parseAuthorization(header.replace('WECHATPAY2-SHA256-RSA2048', 'Bearer'))).toBeNull();
    expect(parseAuthorization(`${header},mchid="1"`)).toBeNull();
  });

  it('the adapter signs what it actually sends (method, path with query, body)', async () => {
    const sent: { url: string; init: RequestInit }[] = [];
    const provider = createWechatPayProvider(
      {
        mchid: '1900009191',
        appid: 'wxd678efh567hg6787',
        merchantSerialNo: '408B07E79B8269FEC3D5D3E6AB8ED163A6A380DB',
        merchantPrivateKey: fixtureKey('merchant', 'private'),
        platformPublicKeys: { [WX_PUB_KEY_ID]: fixtureKey('platform', 'public') },
        apiV3Key: WX_APIV3_KEY,
        baseUrl: 'http://127.0.0.1:9/prefix',
      },
      {
        fetch: async (url, init) => {
          sent.push({ url: String(url), init: init! });
          return new Response('{}', { status: 500 });
        },
      },
    );
    await expect(provider.query('KY20240501000001')).rejects.toMatchObject({ kind: 'UNAVAILABLE' });
    await expect(
      provider.createQr({
        orderNo: 'KY20240501000001',
        amountFen: 1990,
        description: '论文查重-维普',
        expireAt: new Date('2024-05-01T14:00:00Z'),
        notifyUrl: 'https://www.example.com/kyfw/web/v1/pay/notify/wx',
      }),
    ).rejects.toMatchObject({ kind: 'UNAVAILABLE' });
    expect(sent[0]!.url).toBe(
      'http://127.0.0.1:9/prefix/v3/pay/transactions/out-trade-no/KY20240501000001?mchid=1900009191',
    );
    for (const { url, init } of sent) {
      const auth = parseAuthorization((init.headers as Record<string, string>).Authorization);
      expect(auth).not.toBeNull();
      const { pathname, search } = new URL(url);
      const message = buildRequestSignMessage(
        init.method!,
        pathname + search,
        auth!.timestamp,
        auth!.nonce,
        (init.body as string | undefined) ?? '',
      );
      expect(verifySha256WithRsa(message, auth!.signature, merchantPublic)).toBe(true);
    }
    expect(JSON.parse(sent[1]!.init.body as string)).toEqual({
      appid: 'wxd678efh567hg6787',
      mchid: '1900009191',
      description: '论文查重-维普',
      out_trade_no: 'KY20240501000001',
      time_expire: '2024-05-01T22:00:00+08:00',
      notify_url: 'https://www.example.com/kyfw/web/v1/pay/notify/wx',
      amount: { total: 1990, currency: 'CNY' },
    });
  });
});

describe('WeChat Pay v3 notification: verification and AES-256-GCM decryption', () => {
  it('decrypts the sample resource to the known plaintext', () => {
    const body = JSON.parse(vectors.wxNotifyBody!);
    expect(decryptResource(body.resource, Buffer.from(WX_APIV3_KEY))).toBe(vectors.wxPlaintext);
  });

  it('refuses a resource with a flipped ciphertext bit, a wrong key, or wrong associated data', () => {
    const { resource } = JSON.parse(vectors.wxNotifyBody!);
    const bytes = Buffer.from(resource.ciphertext, 'base64');
    bytes[3]! ^= 1;
    expect(() =>
      decryptResource({ ...resource, ciphertext: bytes.toString('base64') }, Buffer.from(WX_APIV3_KEY)),
    ).toThrow('resource does not decrypt');
    expect(() => decryptResource(resource, Buffer.from(WX_APIV3_KEY.replace('A', 'B')))).toThrow();
    expect(() =>
      decryptResource({ ...resource, associated_data: 'refund' }, Buffer.from(WX_APIV3_KEY)),
    ).toThrow();
  });

  it('verifies the platform signature over timestamp\\nnonce\\nbody\\n', () => {
    const message = buildResponseSignMessage(
      String(WX_NOTIFY_TIMESTAMP),
      WX_NOTIFY_NONCE,
      vectors.wxNotifyBody!,
    );
    expect(verifySha256WithRsa(message, vectors.wxNotifySignature!, platformPublic)).toBe(true);
  });

  it('accepts the sample notification and returns the payment', () => {
    const result = wechat().verifyNotification({
      headers: wxNotificationHeaders(),
      rawBody: vectors.wxNotifyBody!,
    });
    expect(result).toMatchObject({
      channel: 'wx',
      orderNo: 'KY20240501000001',
      transactionId: '4200001234202405011234567890',
      amountFen: 1990,
      state: 'SUCCESS',
      notificationId: 'EV-2018022511223320873',
    });
    expect(result.paidAt?.toISOString()).toBe('2024-05-01T12:35:12.000Z');
    expect(result.raw).toEqual(JSON.parse(vectors.wxPlaintext!));
  });

  it('also takes the body as a Buffer and headers in any case', () => {
    const headers = Object.fromEntries(
      Object.entries(wxNotificationHeaders()).map(([k, v]) => [
        k.replace(/(^|-)\w/g, (s) => s.toUpperCase()),
        v,
      ]),
    );
    const result = wechat().verifyNotification({
      headers,
      rawBody: Buffer.from(vectors.wxNotifyBody!, 'utf8'),
    });
    expect(result.state).toBe('SUCCESS');
  });

  it('rejects a changed body', () => {
    const tampered = vectors.wxNotifyBody!.replace('"summary":"支付成功"', '"summary":"支付成功 "');
    expect(expectNotificationError(wechat(), { headers: wxNotificationHeaders(), rawBody: tampered })).toBe(
      'BAD_SIGNATURE',
    );
  });

  it('rejects an unknown Wechatpay-Serial', () => {
    const headers = wxNotificationHeaders({
      'wechatpay-serial': 'PUB_KEY_ID_0119000091912024050100000000000002',
    });
    expect(expectNotificationError(wechat(), { headers, rawBody: vectors.wxNotifyBody! })).toBe(
      'UNKNOWN_SERIAL',
    );
  });

  it('rejects a timestamp more than 5 minutes from our clock, either way', () => {
    const input = { headers: wxNotificationHeaders(), rawBody: vectors.wxNotifyBody! };
    expect(expectNotificationError(wechat({ nowSeconds: WX_NOTIFY_TIMESTAMP + 301 }), input)).toBe(
      'STALE_TIMESTAMP',
    );
    expect(expectNotificationError(wechat({ nowSeconds: WX_NOTIFY_TIMESTAMP - 301 }), input)).toBe(
      'STALE_TIMESTAMP',
    );
    expect(wechat({ nowSeconds: WX_NOTIFY_TIMESTAMP + 300 }).verifyNotification(input).state).toBe('SUCCESS');
  });

  it('rejects a missing signature header and a signature by another key', () => {
    const rawBody = vectors.wxNotifyBody!;
    const { 'wechatpay-signature': _drop, ...noSignature } = wxNotificationHeaders();
    expect(expectNotificationError(wechat(), { headers: noSignature, rawBody })).toBe('BAD_SIGNATURE');
    const forged = signSha256WithRsa(
      buildResponseSignMessage(String(WX_NOTIFY_TIMESTAMP), WX_NOTIFY_NONCE, rawBody),
      merchantPrivate,
    );
    const headers = wxNotificationHeaders({ 'wechatpay-signature': forged });
    expect(expectNotificationError(wechat(), { headers, rawBody })).toBe('BAD_SIGNATURE');
  });

  it('rejects an authentic notification for another mchid or appid', () => {
    const input = { headers: wxNotificationHeaders(), rawBody: vectors.wxNotifyBody! };
    expect(expectNotificationError(wechat({ mchid: '1900000001' }), input)).toBe('WRONG_MERCHANT');
    expect(expectNotificationError(wechat({ appid: 'wx0000000000000001' }), input)).toBe('WRONG_MERCHANT');
  });

  it('rejects a resource that does not decrypt with our APIv3 key', () => {
    const input = { headers: wxNotificationHeaders(), rawBody: vectors.wxNotifyBody! };
    expect(expectNotificationError(wechat({ apiV3Key: 'ANOTHERkeyOf32BytesANOTHERkeyOf3' }), input)).toBe(
      'UNDECRYPTABLE',
    );
  });

  it('answers the platform the way it expects', () => {
    expect(wechat().acknowledge({ ok: true })).toEqual({
      statusCode: 200,
      contentType: 'application/json',
      body: '{"code":"SUCCESS","message":"成功"}',
    });
    expect(wechat().acknowledge({ ok: false, message: '验签失败', statusCode: 401 })).toEqual({
      statusCode: 401,
      contentType: 'application/json',
      body: '{"code":"FAIL","message":"验签失败"}',
    });
    expect(wechat().acknowledge({ ok: false, message: '系统繁忙' }).statusCode).toBe(500);
  });
});

const ALI_APP_ID = '2021000123456789';
const ALI_SELLER_ID = '2088101106499364';

function alipay(overrides: { appId?: string; sellerId?: string | null } = {}) {
  return createAlipayProvider({
    appId: overrides.appId ?? ALI_APP_ID,
    appPrivateKey: fixtureKey('merchant', 'private'),
    alipayPublicKey: fixtureKey('platform', 'public'),
    ...(overrides.sellerId === null ? {} : { sellerId: overrides.sellerId ?? ALI_SELLER_ID }),
  });
}

const ALI_NOTIFY_FIELDS: Record<string, string> = {
  notify_time: '2024-05-01 20:35:13',
  notify_type: 'trade_status_sync',
  notify_id: 'ac05099524730693a8b330c5ecf72da9786',
  app_id: ALI_APP_ID,
  charset: 'utf-8',
  version: '1.0',
  sign_type: 'RSA2',
  trade_no: '2024050122001412345678901234',
  out_trade_no: 'KY20240501000001',
  buyer_id: '2088102122524333',
  seller_id: ALI_SELLER_ID,
  trade_status: 'TRADE_SUCCESS',
  total_amount: '19.90',
  receipt_amount: '19.90',
  subject: '论文查重-维普 & 报告',
  gmt_create: '2024-05-01 20:34:50',
  gmt_payment: '2024-05-01 20:35:12',
};

function aliNotifyBody(overrides: Record<string, string> = {}): string {
  return new URLSearchParams({
    ...ALI_NOTIFY_FIELDS,
    sign: vectors.aliNotifySignature!,
    ...overrides,
  }).toString();
}

describe('Alipay RSA2 signing', () => {
  const requestParams: Record<string, string> = {
    app_id: ALI_APP_ID,
    method: 'alipay.trade.precreate',
    format: 'JSON',
    charset: 'utf-8',
    sign_type: 'RSA2',
    timestamp: '2024-05-01 20:00:00',
    version: '1.0',
    notify_url: 'https://www.example.com/kyfw/web/v1/pay/notify/ali',
    empty_one: '',
    biz_content:
      '{"out_trade_no":"KY20240501000001","total_amount":"19.90","subject":"论文查重-维普","time_expire":"2024-05-01 22:00:00"}',
  };

  it('builds the request sign string: sorted, raw values, empty values and sign left out, sign_type kept', () => {
    const content = buildSignContent({ ...requestParams, sign: 'x' }, REQUEST_SIGN_EXCLUDE);
    expect(content).toBe(vectors.aliRequestSignContent);
    expect(content).toContain('sign_type=RSA2');
    expect(content).not.toContain('empty_one');
    expect(signSha256WithRsa(content, merchantPrivate)).toBe(vectors.aliRequestSignature);
  });

  it('builds the notification sign string without sign and sign_type', () => {
    const content = buildSignContent({ ...ALI_NOTIFY_FIELDS, sign: 'x' }, NOTIFY_SIGN_EXCLUDE);
    expect(content).toBe(vectors.aliNotifySignContent);
    expect(content).not.toContain('sign_type');
  });

  it('finds the exact text of the response node, braces and escapes inside strings included', () => {
    const text = `{"alipay_trade_precreate_response":${vectors.aliResponseNode},"sign":"${vectors.aliResponseSignature}"}`;
    const node = extractResponseNode(text, 'alipay.trade.precreate');
    expect(node).toEqual({
      nodeName: 'alipay_trade_precreate_response',
      nodeText: vectors.aliResponseNode,
      sign: vectors.aliResponseSignature,
    });
    expect(verifySha256WithRsa(node!.nodeText, node!.sign!, platformPublic)).toBe(true);
    // Whitespace and key order around the node do not matter; the node bytes do.
    const spaced = `{ "sign" : "${vectors.aliResponseSignature}" ,\n "alipay_trade_precreate_response" : ${vectors.aliResponseNode} }`;
    expect(extractResponseNode(spaced, 'alipay.trade.precreate')?.nodeText).toBe(vectors.aliResponseNode);
    const reserialised = JSON.stringify(JSON.parse(vectors.aliResponseNode!));
    expect(reserialised).not.toBe(vectors.aliResponseNode);
    expect(verifySha256WithRsa(reserialised, vectors.aliResponseSignature!, platformPublic)).toBe(false);
  });

  it('reads the generic error_response node, and nothing from non-answers', () => {
    const text =
      '{"error_response":{"code":"40002","msg":"Invalid Arguments","sub_code":"isv.invalid-app-id"}}';
    expect(extractResponseNode(text, 'alipay.trade.query')).toMatchObject({
      nodeName: 'error_response',
      sign: undefined,
    });
    expect(extractResponseNode('<html>502</html>', 'alipay.trade.query')).toBeNull();
    expect(extractResponseNode('{"other":1}', 'alipay.trade.query')).toBeNull();
  });

  it('accepts the sample notification (form-encoded, sign_type present but not signed)', () => {
    const result = alipay().verifyNotification({ headers: {}, rawBody: aliNotifyBody() });
    expect(result).toMatchObject({
      channel: 'ali',
      orderNo: 'KY20240501000001',
      transactionId: '2024050122001412345678901234',
      amountFen: 1990,
      state: 'SUCCESS',
      notificationId: 'ac05099524730693a8b330c5ecf72da9786',
    });
    expect(result.paidAt?.toISOString()).toBe('2024-05-01T12:35:12.000Z');
    expect(result.raw.subject).toBe('论文查重-维普 & 报告');
  });

  it('rejects a changed amount, a changed status and an added field', () => {
    const changes: Record<string, string>[] = [
      { total_amount: '0.01' },
      { trade_status: 'TRADE_FINISHED' },
      { passback_params: 'x' },
    ];
    for (const change of changes) {
      expect(expectNotificationError(alipay(), { headers: {}, rawBody: aliNotifyBody(change) })).toBe(
        'BAD_SIGNATURE',
      );
    }
  });

  it('rejects a missing sign and sign types other than RSA2', () => {
    const { sign: _drop, ...unsigned } = Object.fromEntries(new URLSearchParams(aliNotifyBody()));
    expect(
      expectNotificationError(alipay(), { headers: {}, rawBody: new URLSearchParams(unsigned).toString() }),
    ).toBe('BAD_SIGNATURE');
    expect(
      expectNotificationError(alipay(), { headers: {}, rawBody: aliNotifyBody({ sign_type: 'RSA' }) }),
    ).toBe('BAD_SIGNATURE');
  });

  it('rejects an authentic notification for another app_id or seller_id', () => {
    const input = { headers: {}, rawBody: aliNotifyBody() };
    expect(expectNotificationError(alipay({ appId: '2021000000000001' }), input)).toBe('WRONG_MERCHANT');
    expect(expectNotificationError(alipay({ sellerId: '2088000000000001' }), input)).toBe('WRONG_MERCHANT');
    expect(alipay({ sellerId: null }).verifyNotification(input).state).toBe('SUCCESS');
  });

  it('rejects a repeated field (two values for one name)', () => {
    const body = `${aliNotifyBody()}&total_amount=0.01`;
    expect(expectNotificationError(alipay(), { headers: {}, rawBody: body })).toBe('MALFORMED');
  });

  it('answers success / fail as plain text', () => {
    expect(alipay().acknowledge({ ok: true }).body).toBe('success');
    expect(alipay().acknowledge({ ok: false, message: 'x' }).body).toBe('fail');
  });
});
