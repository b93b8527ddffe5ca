import { defineModule } from '../types.ts';
import { type ConsoleExtension, consoleRoutes } from './console.routes.ts';
import { createStaffService, type StaffService } from './staff.service.ts';

export interface ConsoleModuleService {
  staff: StaffService;
  /** The staff session cookie is Secure when PUBLIC_BASE_URL is https. */
  secureCookies: boolean;
  /** Adds another module's console endpoints (call from its `hooks`); see ConsoleExtension. */
  extend(extension: ConsoleExtension): void;
  readonly extensions: readonly ConsoleExtension[];
}

/**
 * The operator console's API under /kyfw/web/v1/admin (docs/api/operator.md): staff accounts with
 * roles, TOTP login, the audit log, and the queues over the orders module's services. Listed after
 * the orders module (it uses the orders runtime).
 */
export const consoleModule = defineModule({
  name: 'console',
  createService({ config, db, clock }): ConsoleModuleService {
    const extensions: ConsoleExtension[] = [];
    return {
      staff: createStaffService({ db, scryptCost: config.accounts.passwordScryptCost, now: clock }),
      secureCookies: config.publicBaseUrl.startsWith('https:'),
      extend: (extension) => extensions.push(extension),
      extensions,
    };
  },
  async routes(app, { console: service, orders }) {
    await app.register(consoleRoutes, {
      db: orders.runtime.db,
      staff: service.staff,
      secureCookies: service.secureCookies,
      orders: orders.runtime,
      extensions: service.extensions,
    });
  },
});
