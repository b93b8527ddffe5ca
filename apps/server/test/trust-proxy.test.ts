// Behind a reverse proxy the per-IP limits must see the student's address: TRUST_PROXY
// decides whether X-Forwarded-For is believed.
import { ok } from '@kyfw/contracts';
import { afterAll, describe, expect, it } from 'vitest';
import { defineRoutesModule } from '../src/modules/types.ts';
import { buildTestApp, type TestApp } from './helper.ts';

const whoAmI = defineRoutesModule({
  name: 'who-am-i',
  routes(app) {
    app.get('/whoami', async (request) => ok({ ip: request.ip }));
  },
});

const apps: TestApp[] = [];
afterAll(async () => {
  for (const t of apps) await t.close();
});

async function ipSeen(env: Record<string, string>): Promise<string> {
  const t = await buildTestApp({ env, modules: [whoAmI] });
  apps.push(t);
  const res = await t.app.inject({
    method: 'GET',
    url: '/kyfw/web/v1/whoami',
    headers: { 'x-forwarded-for': '203.0.113.7' },
    remoteAddress: '10.0.0.2',
  });
  return (res.json() as { data: { ip: string } }).data.ip;
}

describe('TRUST_PROXY', () => {
  it('ignores X-Forwarded-For by default (a client cannot pick its own address)', async () => {
    expect(await ipSeen({})).toBe('10.0.0.2');
  });

  it('takes the client address from X-Forwarded-For sent by a trusted proxy', async () => {
    expect(await ipSeen({ TRUST_PROXY: '10.0.0.0/8' })).toBe('203.0.113.7');
  });

  it('ignores X-Forwarded-For from a proxy that is not trusted', async () => {
    expect(await ipSeen({ TRUST_PROXY: '192.168.1.1' })).toBe('10.0.0.2');
  });

  it('rejects a value that is not an address list', async () => {
    await expect(buildTestApp({ env: { TRUST_PROXY: 'yes; rm -rf' }, modules: [whoAmI] })).rejects.toThrow(
      /TRUST_PROXY/,
    );
  });
});
