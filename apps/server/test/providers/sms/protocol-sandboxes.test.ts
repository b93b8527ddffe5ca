import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  aliyunSmsSandboxPlugin,
  createAliyunSmsProvider,
  createTencentSmsProvider,
  SmsInvalidPhoneError,
  SmsOutbox,
  SmsProviderError,
  SmsRateLimitedError,
  tencentSmsSandboxPlugin,
} from '../../../src/providers/sms/index.ts';

const ALIYUN = {
  accessKeyId: 'LTAI-test-id',
  accessKeySecret: 'aliyun-test-secret',
  signName: '科研服务',
  templateCode: 'SMS_100001',
};
const TENCENT = {
  secretId: 'AKID-test',
  secretKey: 'tencent-test-key',
  appId: '1400000001',
  signName: '科研服务',
  templateId: '1000001',
};

type TencentError = { Response: { Error: { Code: string } } };

let app: FastifyInstance;
let base: string;
const aliyunOutbox = new SmsOutbox();
const tencentOutbox = new SmsOutbox();

/** Records every request the adapter sends, so a test can replay one byte for byte. */
function recordingFetch(log: { url: string; init: RequestInit }[]): typeof fetch {
  return (async (url: string | URL | Request, init?: RequestInit) => {
    log.push({ url: String(url), init: init ?? {} });
    return fetch(url, init);
  }) as typeof fetch;
}

beforeAll(async () => {
  app = Fastify();
  await app.register(aliyunSmsSandboxPlugin, {
    prefix: '/__sandbox/aliyun-sms',
    accessKeys: { [ALIYUN.accessKeyId]: ALIYUN.accessKeySecret },
    signNames: [ALIYUN.signName],
    templateCodes: [ALIYUN.templateCode],
    outbox: aliyunOutbox,
  });
  await app.register(tencentSmsSandboxPlugin, {
    prefix: '/__sandbox/tencent-sms',
    secrets: { [TENCENT.secretId]: TENCENT.secretKey },
    appIds: [TENCENT.appId],
    signNames: [TENCENT.signName],
    templateIds: [TENCENT.templateId],
    outbox: tencentOutbox,
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await app.close();
});

describe('Aliyun adapter against the Dysmsapi protocol sandbox over loopback', () => {
  const endpoint = () => `${base}/__sandbox/aliyun-sms/`;

  it('sends a signed SendSms that the sandbox verifies and delivers', async () => {
    const sms = createAliyunSmsProvider({ ...ALIYUN, endpoint: endpoint() });
    const { messageId } = await sms.send({ phone: '13800138000', purpose: '1', params: { code: '482910' } });
    expect(messageId).toMatch(/\^0$/);
    expect(aliyunOutbox.lastMessage('13800138000')).toMatchObject({
      code: '482910',
      type: '1',
      messageId,
      via: 'aliyun',
    });
  });

  it('is refused with SignatureDoesNotMatch when signed with the wrong secret', async () => {
    const sms = createAliyunSmsProvider({
      ...ALIYUN,
      accessKeySecret: 'not-the-secret',
      endpoint: endpoint(),
    });
    const err = await sms
      .send({ phone: '13800138001', purpose: '1', params: { code: '111111' } })
      .catch((e) => e);
    expect(err).toBeInstanceOf(SmsProviderError);
    expect(err.providerCode).toBe('SignatureDoesNotMatch');
    expect(aliyunOutbox.lastMessage('13800138001')).toBeNull();
  });

  it('rejects a tampered body and a replayed request', async () => {
    const log: { url: string; init: RequestInit }[] = [];
    const sms = createAliyunSmsProvider({ ...ALIYUN, endpoint: endpoint(), fetch: recordingFetch(log) });
    await sms.send({ phone: '13800138002', purpose: '3', params: { code: '222222' } });
    const sent = log[0]!;

    const tampered = String(sent.init.body).replace('222222', '999999');
    const t = await fetch(sent.url, { ...sent.init, body: tampered, signal: null });
    expect(((await t.json()) as { Code: string }).Code).toBe('SignatureDoesNotMatch');

    const r = await fetch(sent.url, { ...sent.init, signal: null });
    expect(((await r.json()) as { Code: string }).Code).toBe('SignatureNonceUsed');
    expect(aliyunOutbox.lastMessage('13800138002')?.code).toBe('222222');
  });

  it('is refused when the timestamp is more than 15 minutes off', async () => {
    const sms = createAliyunSmsProvider({
      ...ALIYUN,
      endpoint: endpoint(),
      now: () => new Date(Date.now() - 20 * 60_000),
    });
    const err = await sms
      .send({ phone: '13800138003', purpose: '1', params: { code: '333333' } })
      .catch((e) => e);
    expect(err).toBeInstanceOf(SmsProviderError);
    expect(err.providerCode).toBe('InvalidTimeStamp.Expired');
  });

  it('maps the per-minute flow control to SmsRateLimitedError', async () => {
    const sms = createAliyunSmsProvider({ ...ALIYUN, endpoint: endpoint() });
    await sms.send({ phone: '13800138004', purpose: '1', params: { code: '444444' } });
    const err = await sms
      .send({ phone: '13800138004', purpose: '1', params: { code: '555555' } })
      .catch((e) => e);
    expect(err).toBeInstanceOf(SmsRateLimitedError);
    expect(err.providerCode).toBe('isv.BUSINESS_LIMIT_CONTROL');
    expect(aliyunOutbox.lastMessage('13800138004')?.code).toBe('444444');
  });

  it('maps a number the platform rejects to SmsInvalidPhoneError, and a malformed one before any request', async () => {
    const log: { url: string; init: RequestInit }[] = [];
    const sms = createAliyunSmsProvider({ ...ALIYUN, endpoint: endpoint(), fetch: recordingFetch(log) });
    const err = await sms
      .send({ phone: '12345678901', purpose: '1', params: { code: '666666' } })
      .catch((e) => e);
    expect(err).toBeInstanceOf(SmsInvalidPhoneError);
    expect(err.providerCode).toBe('isv.MOBILE_NUMBER_ILLEGAL');
    const local = await sms
      .send({ phone: '1380013', purpose: '1', params: { code: '666666' } })
      .catch((e) => e);
    expect(local).toBeInstanceOf(SmsInvalidPhoneError);
    expect(log).toHaveLength(1);
  });

  it('reports an unapproved template and an unreachable endpoint as SmsProviderError', async () => {
    const wrongTemplate = createAliyunSmsProvider({ ...ALIYUN, endpoint: endpoint() });
    const e1 = await wrongTemplate
      .send({ phone: '13800138005', purpose: '1', params: { code: '777777' }, templateCode: 'SMS_404' })
      .catch((e) => e);
    expect(e1).toBeInstanceOf(SmsProviderError);
    expect(e1.providerCode).toBe('isv.SMS_TEMPLATE_ILLEGAL');

    const down = createAliyunSmsProvider({ ...ALIYUN, endpoint: 'http://127.0.0.1:1/', timeoutMs: 2000 });
    const e2 = await down
      .send({ phone: '13800138006', purpose: '1', params: { code: '888888' } })
      .catch((e) => e);
    expect(e2).toBeInstanceOf(SmsProviderError);
    expect(e2.message).not.toContain(ALIYUN.accessKeySecret);
  });
});

describe('Tencent adapter against the SendSms protocol sandbox over loopback', () => {
  const endpoint = () => `${base}/__sandbox/tencent-sms`;

  it('sends a TC3-signed SendSms that the sandbox verifies and delivers', async () => {
    const sms = createTencentSmsProvider({ ...TENCENT, endpoint: endpoint() });
    const { messageId } = await sms.send({
      phone: '+86 139 0013 9000',
      purpose: '2',
      params: { code: '102938' },
    });
    expect(messageId).toMatch(/^2645:/);
    expect(tencentOutbox.lastMessage('13900139000')).toMatchObject({
      code: '102938',
      type: '2',
      via: 'tencent',
    });
  });

  it('is refused with AuthFailure.SignatureFailure when signed with the wrong key', async () => {
    const sms = createTencentSmsProvider({ ...TENCENT, secretKey: 'wrong', endpoint: endpoint() });
    const err = await sms
      .send({ phone: '13900139001', purpose: '1', params: { code: '111111' } })
      .catch((e) => e);
    expect(err).toBeInstanceOf(SmsProviderError);
    expect(err.providerCode).toBe('AuthFailure.SignatureFailure');
  });

  it('rejects a tampered body and a tampered signed header', async () => {
    const log: { url: string; init: RequestInit }[] = [];
    const sms = createTencentSmsProvider({ ...TENCENT, endpoint: endpoint(), fetch: recordingFetch(log) });
    await sms.send({ phone: '13900139002', purpose: '3', params: { code: '222222' } });
    const sent = log[0]!;
    const headers = sent.init.headers as Record<string, string>;

    const tamperedBody = await fetch(sent.url, {
      ...sent.init,
      body: String(sent.init.body).replace('222222', '999999'),
      signal: null,
    });
    expect(((await tamperedBody.json()) as TencentError).Response.Error.Code).toBe(
      'AuthFailure.SignatureFailure',
    );

    const tamperedHeader = await fetch(sent.url, {
      ...sent.init,
      headers: { ...headers, 'x-tc-action': 'SendSmsX' },
      signal: null,
    });
    expect(((await tamperedHeader.json()) as TencentError).Response.Error.Code).toBe(
      'AuthFailure.SignatureFailure',
    );
    expect(tencentOutbox.lastMessage('13900139002')?.code).toBe('222222');
  });

  it('is refused with AuthFailure.SignatureExpire when the clock is more than 5 minutes off', async () => {
    const sms = createTencentSmsProvider({
      ...TENCENT,
      endpoint: endpoint(),
      now: () => new Date(Date.now() + 6 * 60_000),
    });
    const err = await sms
      .send({ phone: '13900139003', purpose: '1', params: { code: '333333' } })
      .catch((e) => e);
    expect(err.providerCode).toBe('AuthFailure.SignatureExpire');
  });

  it('maps the 30-second rule to SmsRateLimitedError and a bad number to SmsInvalidPhoneError', async () => {
    const sms = createTencentSmsProvider({ ...TENCENT, endpoint: endpoint() });
    await sms.send({ phone: '13900139004', purpose: '1', params: { code: '444444' } });
    const limited = await sms
      .send({ phone: '13900139004', purpose: '1', params: { code: '555555' } })
      .catch((e) => e);
    expect(limited).toBeInstanceOf(SmsRateLimitedError);
    expect(limited.providerCode).toBe('LimitExceeded.PhoneNumberThirtySecondLimit');
    const invalid = await sms
      .send({ phone: '10000000000', purpose: '1', params: { code: '666666' } })
      .catch((e) => e);
    expect(invalid).toBeInstanceOf(SmsInvalidPhoneError);
    expect(invalid.providerCode).toBe('InvalidParameterValue.IncorrectPhoneNumber');
  });

  it('reports an unknown SmsSdkAppId as SmsProviderError', async () => {
    const sms = createTencentSmsProvider({ ...TENCENT, appId: '1400999999', endpoint: endpoint() });
    const err = await sms
      .send({ phone: '13900139005', purpose: '1', params: { code: '777777' } })
      .catch((e) => e);
    expect(err).toBeInstanceOf(SmsProviderError);
    expect(err.providerCode).toBe('InvalidParameterValue.SdkAppIdNotExist');
  });
});
