import type { FastifyInstance } from 'fastify';
import { defineModule } from '../types.ts';
import { consoleRoutes } from './console.routes.ts';
import { findSealedKey } from './staff.repo.ts';
import { createStaffService, type StaffService } from './staff.service.ts';
import { createStaffRouting, type StaffRouting } from './staff-route.ts';
import { createStaffCipher, RECOVERY_MAC_KEY, staffKeyOf } from './staff-secrets.ts';

export interface ConsoleModuleService {
  staff: StaffService;
  /** The staff session cookie is Secure when PUBLIC_BASE_URL is https. */
  secureCookies: boolean;
  /**
   * The console's staff guard and audit for another module's operator routes (mounted under
   * /admin, @fastify/cookie registered in that plugin): requireStaff(permission, action), staffRoute(endpoint, action, handler).
   */
  staffRouting(app: FastifyInstance): StaffRouting;
}

/**
 * The operator console's API under /kyfw/web/v1/admin (docs/api/operator.md): staff accounts with
 * roles, TOTP login, the audit log, and the queues over the orders module's services. Listed after
 * the orders module (it uses the orders runtime).
 */
export const consoleModule = defineModule({
  name: 'console',
  createService({ config, db, clock }): ConsoleModuleService {
    const staff = createStaffService({
      db,
      scryptCost: config.accounts.passwordScryptCost,
      now: clock,
      // Fails the start in production with DATABASE_URL and no STAFF_SECRET_KEY. The previous key
      // (STAFF_SECRET_KEY_PREVIOUS) is read during a rotation (operator -- rotate-key).
      cipher: createStaffCipher(
        { current: staffKeyOf(config), previous: config.console.previousSecretKey },
        () => findSealedKey(db, RECOVERY_MAC_KEY),
      ),
    });
    return {
      staff,
      secureCookies: config.publicBaseUrl.startsWith('https:'),
      staffRouting: (app) => createStaffRouting(app, { db, staff }),
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
