import { describeZodIssue, ErrorCode, fail, ok } from '@kyfw/contracts';
import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';

/** The app's clock (ModuleDeps.clock) as the system clock plus an offset that only moves forward. */
export interface MovableClock {
  now(): Date;
  /** Moves the clock `ms` forward; returns the new now. */
  advance(ms: number): Date;
}

export function createMovableClock(system: () => number = Date.now): MovableClock {
  let offsetMs = 0;
  const now = () => new Date(system() + offsetMs);
  return {
    now,
    advance(ms) {
      offsetMs += ms;
      return now();
    },
  };
}

/** At most a day per call: enough for any window a journey waits for (SMS minute, code expiry). */
const advanceBodySchema = z.strictObject({ ms: z.number().int().min(0).max(86_400_000) });

/**
 * `GET /__dev/clock` -> `ok({ now })` and `POST /__dev/clock/advance {ms}` -> `ok({ now })`: the
 * end-to-end journeys move the server's clock (every time rule: SMS windows, code and session
 * expiry, orders) instead of waiting for it. main.ts mounts them only with NODE_ENV=test; the
 * job queue keeps the database's clock.
 */
export const clockDevRoutes: FastifyPluginAsync<{ clock: MovableClock }> = async (fastify, { clock }) => {
  fastify.get('/__dev/clock', async (_request, reply) => reply.send(ok({ now: clock.now().toISOString() })));
  fastify.post('/__dev/clock/advance', async (request, reply) => {
    const parsed = advanceBodySchema.safeParse(request.body ?? {});
    if (!parsed.success)
      return reply.send(fail(ErrorCode.VALIDATION, describeZodIssue(parsed.error.issues[0]!)));
    return reply.send(ok({ now: clock.advance(parsed.data.ms).toISOString() }));
  });
};
