import { API_PREFIX } from '@kyfw/contracts';
import type { FastifyInstance } from 'fastify';
import { selfFetch } from '../../lib/self-address.ts';
import {
  DEFAULT_SANDBOX_MOUNT_PATH,
  devPaymentRoutes,
  type FetchFn,
  type PaymentProviders,
  type SandboxKeys,
} from '../../providers/payment/index.ts';
import type { AppModule, ModuleContext } from '../types.ts';
import './account-data.ts';
import { operatorRoutes } from './operator/operator.routes.ts';
import { ordersRoutes } from './orders.routes.ts';
import { createOrdersRuntime, registerOrdersRuntime, unregisterOrdersRuntime } from './orders.runtime.ts';
import { notifyRoutes } from './payments/notify.routes.ts';

export interface OrdersModuleOptions {
  /** Instead of building WeChat Pay / Alipay from configuration (tests). */
  providers?: PaymentProviders;
  /** Transport for the adapters and the sandbox notifier (tests: createInjectFetch(() => app)). */
  fetch?: FetchFn;
  /** Fixed sandbox keys instead of generated ones (tests). */
  sandboxKeys?: SandboxKeys;
}

/**
 * Orders and payment: the API under /kyfw/web/v1 (docs/api/orders.md), the platforms'
 * notification endpoints /kyfw/web/v1/pay/notify/{wx,ali}, the operator API under
 * /kyfw/web/v1/operator, and — exactly when the sandbox payment providers are in use — the
 * sandboxes at /__sandbox (WeChat Pay, Alipay, the 模拟支付 page) and the dev controls
 * POST /__dev/pay {orderNo}, /__dev/pay/faults, GET /__dev/pay/deliveries.
 * Mounted at the root; it nests its own prefixes.
 */
export function createOrdersModule(options: OrdersModuleOptions = {}): AppModule {
  return {
    name: 'orders',
    prefix: '',
    async register(app: FastifyInstance, { config, db }: ModuleContext) {
      // The clock of buildApp({ now }) (accounts' auth service), so tests move time for both.
      const now = app.hasDecorator('accountsAuth') ? () => app.accountsAuth.now() : () => new Date();
      const rt = await createOrdersRuntime({
        db,
        config: config.orders,
        publicBaseUrl: config.publicBaseUrl,
        dataDir: config.dataDir,
        storage: config.storage,
        mail: config.mail,
        now,
        logger: app.log,
        providers: options.providers,
        // Sandbox calls and notifications to our own address reach this process over loopback.
        fetch: options.fetch ?? selfFetch(config.publicBaseUrl, app.server),
        sandboxKeys: options.sandboxKeys,
      });
      registerOrdersRuntime(rt);
      app.addHook('onClose', async () => {
        unregisterOrdersRuntime(rt);
      });

      await app.register(ordersRoutes, { prefix: API_PREFIX, rt });
      await app.register(notifyRoutes, { prefix: API_PREFIX, rt });
      // Its paths (operatorApi in contracts) carry /operator; its token check covers only its own routes.
      await app.register(operatorRoutes, { prefix: API_PREFIX, rt });

      const sandbox = rt.providers.sandbox;
      if (sandbox) {
        await app.register(sandbox.routes, { prefix: DEFAULT_SANDBOX_MOUNT_PATH });
        await app.register(devPaymentRoutes, { sandbox });
      }
    },
  };
}

export const ordersModule = createOrdersModule();
