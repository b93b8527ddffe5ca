// Per-client request limits shared by every API process of the scaled mode: two apps on one
// database together allow the limit once, not twice.
import { ErrorCode } from '@kyfw/contracts';
import { createTestDb } from '@kyfw/db/testing';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, testConfig } from './helper.ts';

let close: () => Promise<void>;
let apps: FastifyInstance[];

beforeAll(async () => {
  const handle = await createTestDb();
  const config = testConfig({ RATE_LIMIT_STORE: 'database' });
  const started = [
    await startTestApp({ config, db: handle.db }),
    await startTestApp({ config, db: handle.db }),
  ];
  apps = started.map((s) => s.app);
  close = async () => {
    for (const s of started) await s.close();
    await handle.close();
  };
});
afterAll(() => close());

async function verify(app: FastifyInstance, ip: string): Promise<number> {
  const res = await app.inject({
    method: 'POST',
    url: '/kyfw/web/v1/freeCheck/verify',
    remoteAddress: ip,
    headers: { 'content-type': 'application/json', terminal: 'PC' },
    payload: JSON.stringify({ reportNo: 'BG20260101000000000001', code: 'ABCDEFGH' }),
  });
  return (res.json() as { code: number }).code;
}

describe('request limits in the database', () => {
  it('counts report verifications of one client across two API processes (20 a minute in all)', async () => {
    const codes: number[] = [];
    // Alternating between the processes, as a load balancer would.
    for (let i = 0; i < 22; i++) codes.push(await verify(apps[i % 2]!, '10.55.0.1'));
    expect(codes.filter((c) => c === ErrorCode.RATE_LIMITED)).toHaveLength(2);
    expect(codes.slice(0, 20)).not.toContain(ErrorCode.RATE_LIMITED);
    // Another client and another route count on their own.
    expect(await verify(apps[1]!, '10.55.0.2')).not.toBe(ErrorCode.RATE_LIMITED);
    const upload = await apps[0]!.inject({
      method: 'POST',
      url: '/kyfw/web/v1/freeCheck/uploadFile',
      remoteAddress: '10.55.0.1',
      headers: { 'content-type': 'application/json' },
      payload: '{}',
    });
    expect(upload.json().code).not.toBe(ErrorCode.RATE_LIMITED);
  });
});
