import type { FastifyPluginAsync } from 'fastify';
import { defineModule } from '../types.ts';
import { consoleRoutes } from './console.routes.ts';
import { createStaffService, type StaffService } from './staff.service.ts';
import { createStaffRouter, type StaffRouter } from './staff-router.ts';

export { ROLES, type StaffRouter } from './staff-router.ts';

export interface ConsoleModuleService {
  staff: StaffService;
  /** The staff session cookie is Secure when PUBLIC_BASE_URL is https. */
  secureCookies: boolean;
  /**
   * Console endpoints of another module (news, commissioned services): a plugin for that module's
   * `routes` to register — `await app.register(services.console.routes((r) => myConsoleRoutes(r)))`.
   * Inside, `r.staffRoute(endpoint, ROLES.editor, 'news.publish', handler)` checks the staff
   * session and role and writes the audit log like the console's own endpoints. Paths must start
   * with /admin/ (the staff cookie is sent only there).
   */
  routes(register: (router: StaffRouter) => Promise<void> | void): FastifyPluginAsync;
}

/**
 * The operator console's API under /kyfw/web/v1/admin (docs/api/operator.md): staff accounts with
 * roles, TOTP login, the audit log, and the queues over the orders module's services. Listed after
 * the orders module (it uses the orders runtime).
 */
export const consoleModule = defineModule({
  name: 'console',
  createService({ config, db, clock }): ConsoleModuleService {
    const staff = createStaffService({ db, scryptCost: config.accounts.passwordScryptCost, now: clock });
    return {
      staff,
      secureCookies: config.publicBaseUrl.startsWith('https:'),
      routes: (register) => async (app) => {
        await register(await createStaffRouter(app, { db, staff }));
      },
    };
  },
  async routes(app, { console: service, orders }) {
    await app.register(consoleRoutes, {
      db: orders.runtime.db,
      staff: service.staff,
      secureCookies: service.secureCookies,
      orders: orders.runtime,
    });
  },
});
