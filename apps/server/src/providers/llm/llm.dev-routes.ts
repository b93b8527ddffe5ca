import { describeZodIssue, ErrorCode, fail, ok } from '@kyfw/contracts';
import type { FastifyPluginAsync } from 'fastify';
import { type LlmSandbox, llmFaultsSchema } from './llm.sandbox.ts';

/**
 * `POST /__dev/llm/faults {reset?, slow?, slowMs?, rateLimited?, serverError?, malformed?, cut?,
 * nonsense?}` -> `ok({faults, slowMs, requests})`: the next n answers of the LLM sandbox are slow,
 * HTTP 429, HTTP 500, malformed, cut mid-stream or nonsense. `GET /__dev/llm/faults` reads the
 * state. Register only with the sandbox.
 */
export const llmDevRoutes: FastifyPluginAsync<{ sandbox: LlmSandbox }> = async (app, { sandbox }) => {
  const view = () => ({
    faults: { ...sandbox.state.faults },
    slowMs: sandbox.state.slowMs,
    requests: sandbox.state.requests,
  });
  app.get('/__dev/llm/faults', async () => ok(view()));
  app.post('/__dev/llm/faults', async (request, reply) => {
    const parsed = llmFaultsSchema.safeParse(request.body ?? {});
    if (!parsed.success)
      return reply.send(fail(ErrorCode.VALIDATION, describeZodIssue(parsed.error.issues[0]!)));
    sandbox.setFaults(parsed.data);
    return ok(view());
  });
};
