import fastifyCookie from '@fastify/cookie';
import { aiUsageAdminApi } from '@kyfw/contracts';
import { defineRoutesModule } from '../types.ts';

/**
 * The console's AI 用量 overview at /admin/llm/budget (docs/api/operator.md): today's tokens and
 * cost against LLM_DAILY_TOKEN_BUDGET, top accounts, tasks, the last 7 days, the limits in force.
 * Uses the console's staff guard and audit, so it is listed after the console.
 */
export const aiUsageModule = defineRoutesModule({
  name: 'aiUsage',
  async routes(app, { llm, console }) {
    await app.register(async (scope) => {
      await scope.register(fastifyCookie);
      scope.addHook('onSend', async (_request, reply) => {
        reply.header('cache-control', 'no-store');
      });
      const { staffRoute } = console.staffRouting(scope);
      staffRoute(aiUsageAdminApi.budget, 'llm.budget', async () => ({
        data: await llm.quota.overview(),
      }));
    });
  },
});
