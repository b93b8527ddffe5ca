import { describeZodIssue, ErrorCode, fail, ok } from '@kyfw/contracts';
import type { FastifyPluginAsync } from 'fastify';
import { type LlmSandbox, llmFaultsSchema } from './llm.sandbox.ts';

/**
 * `POST /__dev/llm/faults {reset?, <fault>?: n, slowMs?, hugeChars?, onlyTask?}` ->
 * `ok({faults, slowMs, hugeChars, onlyTask, applied, requests})`: the next n answers of the LLM
 * sandbox misbehave. `GET /__dev/llm/faults` reads the state. Register only with the sandbox.
 *
 * Transport faults: `slow` (wait slowMs), `rateLimited` (HTTP 429), `serverError` (HTTP 500),
 * `malformed` (a body or stream event that is not JSON), `cut` (the connection closes half-way),
 * `nonsense` (text that is not the JSON asked for), `phantomCitations` ([97], [1,98] appended).
 *
 * Content faults, applied to what the template would have answered (for a JSON answer, to each
 * string value with text in it; `huge` and `cutOff` to the whole answer):
 * `inventedCitations` (王明和李华（2021）, Smith et al. (2020), a DOI, a URL, a 《journal》 not in
 * the prompt, an in-body 参考文献 block [1]–[3]), `driftNumber` (8所→18所), `driftSign`
 * (-3.2%→3.2%), `driftDirection` (增长→下降, 提高→降低, 增加→减少, 正相关→负相关, 显著→不显著,
 * a negation dropped or added), `driftName` (王建华→王建国, a place or an organisation),
 * `dropSentence`, `addClaim` (a new sentence with 47.6% and [9]), `refusal` (抱歉，我无法…),
 * `empty`, `english`, `preamble` (好的，以下是改写后的段落：… （说明：…）), `promptEcho` (the system
 * prompt), `injectionObeyed` (what an instruction planted in the user's text asked for, else the
 * system prompt), `huge` (hugeChars characters, default 700,000, max_tokens ignored), `cutOff`
 * (cut mid-sentence, finish_reason length). `onlyTask` limits content faults to tasks starting
 * with it; `applied` lists which answer (request number, task) got which content fault.
 */
export const llmDevRoutes: FastifyPluginAsync<{ sandbox: LlmSandbox }> = async (app, { sandbox }) => {
  const view = () => ({
    faults: { ...sandbox.state.faults },
    slowMs: sandbox.state.slowMs,
    hugeChars: sandbox.state.hugeChars,
    onlyTask: sandbox.state.onlyTask,
    applied: [...sandbox.state.applied],
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
