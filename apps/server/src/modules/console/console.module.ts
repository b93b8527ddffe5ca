import type { FastifyInstance } from 'fastify';
import type { AppModule, ModuleContext } from '../types.ts';
import { consoleRoutes } from './console.routes.ts';
import { createStaffService } from './staff.service.ts';

/**
 * The operator console's API under /kyfw/web/v1/admin (docs/api/operator.md): staff accounts with
 * roles, TOTP login, the audit log, and the queues over the orders module's services. Registered
 * after the orders module (it uses the orders runtime).
 */
export const consoleModule: AppModule = {
  name: 'console',
  async register(app: FastifyInstance, { config, db }: ModuleContext) {
    // The clock of buildApp({ now }), so tests move time for sessions and TOTP too.
    const now = app.hasDecorator('accountsAuth') ? () => app.accountsAuth.now() : () => new Date();
    const staff = createStaffService({ db, scryptCost: config.accounts.passwordScryptCost, now });
    await app.register(consoleRoutes, {
      db,
      staff,
      secureCookies: config.publicBaseUrl.startsWith('https:'),
    });
  },
};
