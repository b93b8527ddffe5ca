import { COMMISSION_SERVICES } from '@kyfw/contracts';
import { defineModule } from '../types.ts';
import { registerCommissionAccountHooks } from './commission.account-data.ts';
import { endByRefund } from './commission.fulfilment.ts';
import { commissionJobDefinitions, commissionSchedules } from './commission.jobs.ts';
import { commissionRoutes } from './commission.routes.ts';
import type { CommissionRuntime } from './commission.runtime.ts';
import { startPaid } from './commission.service.ts';

export type CommissionModuleService = CommissionRuntime;

/**
 * The commissioned services — 收录引用检索报告, 科技查新, 文献下载服务, 科技成果评价
 * (docs/api/commission.md): /commission/* for clients, /admin/commission/* for operators (the
 * console's staff guard and audit), the onPaid handler of the four service types and the jobs that
 * move a paid order to processing and send the done SMS. Uses orders, check (file storage and
 * extraction), accounts (SMS) and console (staff); listed after them.
 */
export const commissionModule = defineModule({
  name: 'commission',
  createService({ config, db, clock, logger, services }): CommissionModuleService {
    const sms = services.accounts.sms;
    const template = config.accounts.commissionDoneSmsTemplate;
    return {
      db,
      orders: services.orders.api,
      check: services.check,
      // The sandbox outbox always takes the notice; a real provider needs its template.
      sms: sms.sandbox
        ? { provider: sms.provider }
        : template
          ? { provider: sms.provider, templateCode: template }
          : null,
      mail: services.orders.runtime.mail,
      publicBaseUrl: services.orders.runtime.publicBaseUrl,
      logger,
      now: clock,
    };
  },
  hooks({ orders, accounts, commission }) {
    registerCommissionAccountHooks(accounts.hooks, commission);
    for (const service of COMMISSION_SERVICES) {
      orders.onPaid(service, async ({ tx, order }) => startPaid(tx, order, commission.now()));
      orders.onRefunded(service, async ({ tx, order }) => endByRefund(tx, order.orderId, commission.now()));
    }
  },
  async routes(app, { commission, console, accounts }) {
    await app.register(commissionRoutes, { rt: commission, console, uploads: accounts.uploads });
  },
  jobs: commissionJobDefinitions,
  schedules: commissionSchedules,
});
