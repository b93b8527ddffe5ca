import { API_PREFIX } from '@kyfw/contracts';
import { selfFetch } from '../../lib/self-address.ts';
import { DEFAULT_SANDBOX_MOUNT_PATH, devPaymentRoutes, type FetchFn } from '../../providers/payment/index.ts';
import type { SmsSetup } from '../../providers/sms/index.ts';
import { defineModule } from '../types.ts';
import { registerOrdersAccountHooks } from './account-data.ts';
import { goodsConsoleRoutes } from './goods.console.ts';
import { operatorRoutes } from './operator/operator.routes.ts';
import { createOrdersApi, type OrdersApi } from './orders.api.ts';
import { ordersJobDefinitions, ordersSchedules } from './orders.jobs.ts';
import { ordersRoutes } from './orders.routes.ts';
import { createOrdersRuntime, createWorkerPaymentProviders, type OrdersRuntime } from './orders.runtime.ts';
import type { PaidHooks, RefundHooks } from './paid-hooks.ts';
import { notifyRoutes } from './payments/notify.routes.ts';
import type { RefundSms } from './payments/refund-notice.ts';

export interface OrdersModuleService {
  /** What the orders routes, services and jobs share (providers, files, mail, clock, hooks). */
  runtime: OrdersRuntime;
  /** The orders API for other modules (orders.api.ts): the only way in from outside. */
  api: OrdersApi;
  /** Registers what a service does when one of its orders becomes paid (paid-hooks.ts). */
  onPaid: PaidHooks['onPaid'];
  /** Registers what a service does when an operator refunds one of its orders in full (paid-hooks.ts). */
  onRefunded: RefundHooks['onRefunded'];
  /** The refund notice's SMS: the sandbox outbox always, a real provider with ORDER_REFUND_SMS_TEMPLATE. */
  refundSms: RefundSms;
}

/**
 * Orders and payment: the API under /kyfw/web/v1 (docs/api/orders.md), the platforms'
 * notification endpoints /kyfw/web/v1/pay/notify/{wx,ali}, the operator API under
 * /kyfw/web/v1/operator, and — exactly when the sandbox payment providers are in use — the
 * sandboxes at /__sandbox (WeChat Pay, Alipay, the 模拟支付 page) and the dev controls
 * POST /__dev/pay {orderNo}, /__dev/pay/faults, GET /__dev/pay/deliveries.
 * Mounted at the root; it nests its own prefixes.
 */
export const ordersModule = defineModule({
  name: 'orders',
  prefix: '',
  async createService({
    config,
    db,
    clock,
    logger,
    providers,
    role,
    httpServer,
    services,
  }): Promise<OrdersModuleService> {
    const payment = providers.payment ?? {};
    // Sandbox calls and notifications to our own address reach this process over loopback.
    const ownFetch: FetchFn = (input, init) => {
      const server = httpServer();
      return server ? selfFetch(config.publicBaseUrl, server)(input, init) : fetch(input, init);
    };
    const runtime = await createOrdersRuntime({
      db,
      config: config.orders,
      publicBaseUrl: config.publicBaseUrl,
      dataDir: config.dataDir,
      storage: config.storage,
      mail: config.mail,
      now: clock,
      logger,
      providers:
        payment.providers ??
        (role === 'worker'
          ? await createWorkerPaymentProviders({
              config: config.orders,
              dataDir: config.dataDir,
              publicBaseUrl: config.publicBaseUrl,
            })
          : undefined),
      fetch: payment.fetch ?? (role === 'app' ? ownFetch : undefined),
      sandboxKeys: payment.sandboxKeys,
    });
    return {
      runtime,
      api: createOrdersApi(runtime),
      onPaid: runtime.paidHooks.onPaid,
      onRefunded: runtime.refundHooks.onRefunded,
      refundSms: refundSmsOf(services.accounts.sms, config.accounts.orderRefundSmsTemplate),
    };
  },
  hooks({ accounts }) {
    registerOrdersAccountHooks(accounts.hooks);
  },
  async routes(app, { orders, console, check, accounts }) {
    const rt = orders.runtime;
    // The console's goods and prices (admin), under /admin with the staff session and audit log.
    await app.register(goodsConsoleRoutes, {
      prefix: API_PREFIX,
      db: rt.db,
      now: rt.now,
      freeMaxChars: check.config.freeMaxChars,
      console,
    });
    await app.register(ordersRoutes, { prefix: API_PREFIX, rt, uploads: accounts.uploads });
    await app.register(notifyRoutes, { prefix: API_PREFIX, rt });
    // Its paths (operatorApi in contracts) carry /operator; its token check covers only its own routes.
    await app.register(operatorRoutes, { prefix: API_PREFIX, rt });
    const sandbox = rt.providers.sandbox;
    if (sandbox) {
      await app.register(sandbox.routes, { prefix: DEFAULT_SANDBOX_MOUNT_PATH });
      await app.register(devPaymentRoutes, { sandbox });
    }
  },
  jobs: ordersJobDefinitions,
  schedules: ordersSchedules,
});

function refundSmsOf(sms: SmsSetup, template: string | undefined): RefundSms {
  if (sms.sandbox) return { provider: sms.provider };
  return template ? { provider: sms.provider, templateCode: template } : null;
}
