import { ErrorCode } from '@kyfw/contracts';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { clockDevRoutes, createMovableClock } from '../src/lib/dev-clock.ts';

describe('the movable clock of the end-to-end journeys (/__dev/clock)', () => {
  it('moves forward by what a journey asks and keeps following the system clock', async () => {
    let system = Date.parse('2026-03-01T08:00:00Z');
    const clock = createMovableClock(() => system);
    const app = Fastify();
    await app.register(clockDevRoutes, { clock });

    expect((await app.inject({ url: '/__dev/clock' })).json()).toMatchObject({
      code: 0,
      data: { now: '2026-03-01T08:00:00.000Z' },
    });
    const moved = await app.inject({ method: 'POST', url: '/__dev/clock/advance', payload: { ms: 61_000 } });
    expect(moved.json()).toMatchObject({ code: 0, data: { now: '2026-03-01T08:01:01.000Z' } });
    system += 1_000;
    expect(clock.now().toISOString()).toBe('2026-03-01T08:01:02.000Z');
  });

  it('refuses a backward or malformed move with 1001 and leaves the clock where it was', async () => {
    const clock = createMovableClock(() => 0);
    const app = Fastify();
    await app.register(clockDevRoutes, { clock });
    for (const payload of [{ ms: -1 }, { ms: 'soon' }, {}, { ms: 1, extra: true }]) {
      const res = await app.inject({ method: 'POST', url: '/__dev/clock/advance', payload });
      expect(res.json(), JSON.stringify(payload)).toMatchObject({ code: ErrorCode.VALIDATION });
    }
    expect(clock.now().getTime()).toBe(0);
  });
});
