import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createSmsProvider,
  listSmsConfigProblems,
  SMS_OUTBOX_FILE,
  SmsInvalidPhoneError,
  smsConfigSchema,
  smsDevRoutes,
} from '../../../src/providers/sms/index.ts';

const dirs: string[] = [];
function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'kyfw-sms-'));
  dirs.push(d);
  return d;
}
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('sandbox SMS provider and its outbox', () => {
  it('keeps the last code per phone with its purpose and time', async () => {
    const { provider, sandbox } = createSmsProvider(smsConfigSchema.parse({}));
    expect(provider.kind).toBe('sandbox');
    await provider.send({ phone: '13800138000', purpose: '1', params: { code: '111111' } });
    const before = Date.now();
    await provider.send({ phone: '+8613800138000', purpose: '3', params: { code: '222222' } });
    const after = Date.now();
    await provider.send({ phone: '13900139000', purpose: '2', params: { code: '333333' } });
    const last = sandbox!.lastMessage('13800138000');
    expect(last).toMatchObject({ code: '222222', type: '3' });
    // sentAt is when that code was sent.
    expect(Date.parse(last!.sentAt)).toBeGreaterThanOrEqual(before);
    expect(Date.parse(last!.sentAt)).toBeLessThanOrEqual(after);
    expect(sandbox!.lastMessage('13900139000')?.code).toBe('333333');
    expect(sandbox!.lastMessage('13700137000')).toBeNull();
  });

  it('refuses a number that is not a mainland mobile', async () => {
    const { provider } = createSmsProvider(smsConfigSchema.parse({ SMS_PROVIDER: 'sandbox' }));
    await expect(
      provider.send({ phone: '12000000000', purpose: '1', params: { code: '1' } }),
    ).rejects.toBeInstanceOf(SmsInvalidPhoneError);
  });

  it('survives a restart when given a state dir', async () => {
    const stateDir = tempDir();
    const first = createSmsProvider(smsConfigSchema.parse({}), { stateDir });
    await first.provider.send({ phone: '13800138000', purpose: '1', params: { code: '424242' } });
    await first.provider.send({ phone: '13800138000', purpose: '4', params: { code: '434343' } });
    expect(readFileSync(join(stateDir, SMS_OUTBOX_FILE), 'utf8').trim().split('\n')).toHaveLength(2);

    const second = createSmsProvider(smsConfigSchema.parse({}), { stateDir });
    expect(second.sandbox!.lastMessage('13800138000')).toMatchObject({ code: '434343', type: '4' });
  });
});

describe('SMS configuration', () => {
  it('finds a code sent by another process sharing the state dir (scaled mode), also after it compacted', async () => {
    const stateDir = tempDir();
    const config = smsConfigSchema.parse({ SMS_PROVIDER: 'sandbox' });
    // Two API processes: each builds its own provider on the same DATA_DIR/sandbox.
    const first = createSmsProvider(config, { stateDir });
    const second = createSmsProvider(config, { stateDir });
    await first.provider.send({ phone: '13800138001', purpose: '1', params: { code: '424242' } });
    expect(second.sandbox!.lastMessage('13800138001')?.code).toBe('424242');
    await second.provider.send({ phone: '13800138001', purpose: '3', params: { code: '515151' } });
    expect(first.sandbox!.lastMessage('13800138001')).toMatchObject({ code: '515151', type: '3' });
    // Past the compaction threshold twice in one process (the file replaced each time), the other
    // still reads every new code.
    for (let i = 0; i < 4500; i++) {
      await first.provider.send({
        phone: `1390000000${i % 5}`,
        purpose: '1',
        params: { code: String(100000 + i) },
      });
    }
    await first.provider.send({ phone: '13800138001', purpose: '1', params: { code: '616161' } });
    expect(second.sandbox!.lastMessage('13800138001')?.code).toBe('616161');
    expect(second.sandbox!.lastMessage('13900000004')?.code).toBe('104499');
    expect(readFileSync(join(stateDir, SMS_OUTBOX_FILE), 'utf8').trim().split('\n').length).toBeLessThan(
      2000,
    );
  });

  it('defaults to the sandbox and treats blank variables as unset', () => {
    const cfg = smsConfigSchema.parse({ ALIYUN_ACCESS_KEY_ID: '  ', TENCENT_SMS_ENDPOINT: '' });
    expect(cfg.SMS_PROVIDER).toBe('sandbox');
    expect(cfg.ALIYUN_ACCESS_KEY_ID).toBeUndefined();
    expect(cfg.TENCENT_SMS_ENDPOINT).toBeUndefined();
  });

  it('lists every missing variable of a real provider, and the factory refuses without them', () => {
    const cfg = smsConfigSchema.parse({ SMS_PROVIDER: 'aliyun', ALIYUN_ACCESS_KEY_ID: 'id' });
    expect(listSmsConfigProblems(cfg)).toEqual([
      'ALIYUN_ACCESS_KEY_SECRET is required when SMS_PROVIDER=aliyun',
      'ALIYUN_SMS_SIGN_NAME is required when SMS_PROVIDER=aliyun',
      'ALIYUN_SMS_TEMPLATE_CODE is required when SMS_PROVIDER=aliyun',
    ]);
    expect(() => createSmsProvider(cfg)).toThrow(/ALIYUN_ACCESS_KEY_SECRET/);
    expect(smsConfigSchema.safeParse({ SMS_PROVIDER: 'yunpian' }).success).toBe(false);
    expect(smsConfigSchema.safeParse({ ALIYUN_SMS_ENDPOINT: 'ftp://x' }).success).toBe(false);
  });

  it('builds the real adapters without a sandbox when configured', () => {
    const tencent = createSmsProvider(
      smsConfigSchema.parse({
        SMS_PROVIDER: 'tencent',
        TENCENT_SECRET_ID: 'a',
        TENCENT_SECRET_KEY: 'b',
        TENCENT_SMS_APP_ID: '1400000000',
        TENCENT_SMS_SIGN_NAME: 's',
        TENCENT_SMS_TEMPLATE_ID: '1',
      }),
    );
    expect(tencent.provider.kind).toBe('tencent');
    expect(tencent.sandbox).toBeNull();
  });
});

describe('GET /__dev/sms/last', () => {
  async function build() {
    const { provider, sandbox } = createSmsProvider(smsConfigSchema.parse({}));
    const app = Fastify();
    await app.register(smsDevRoutes, { sms: sandbox! });
    return { app, provider };
  }

  it('answers the last code sent to the phone in the envelope', async () => {
    const { app, provider } = await build();
    await provider.send({ phone: '13800138000', purpose: '1', params: { code: '654321' } });
    const res = await app.inject({ method: 'GET', url: '/__dev/sms/last?phone=13800138000' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.code).toBe(0);
    expect(body.data).toEqual({ code: '654321', type: '1', sentAt: expect.any(String) });
  });

  it('answers a non-zero code with a Chinese message for an unknown or invalid phone', async () => {
    const { app } = await build();
    const unknown = (await app.inject({ method: 'GET', url: '/__dev/sms/last?phone=13800138009' })).json();
    expect(unknown.code).not.toBe(0);
    expect(unknown.message).toMatch(/[\u4e00-\u9fff]/);
    expect(unknown.data).toBeNull();
    const invalid = (await app.inject({ method: 'GET', url: '/__dev/sms/last?phone=abc' })).json();
    expect(invalid.code).toBe(1001);
    expect(invalid.message).toBe('请输入正确的手机号码');
  });
});
