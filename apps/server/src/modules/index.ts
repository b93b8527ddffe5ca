import { housekeepingModule } from '../jobs/housekeeping.jobs.ts';
import { type AccountsModuleService, accountsModule } from './accounts/index.ts';
import { type CheckModuleService, checkModule } from './check/index.ts';
import { type CommissionModuleService, commissionModule } from './commission/index.ts';
import { type ConsoleModuleService, consoleModule } from './console/index.ts';
import { type HomeModuleService, homeModule } from './home/index.ts';
import { type LibraryModuleService, libraryModule } from './library/index.ts';
import { aiUsageModule, type LlmModuleService, llmModule } from './llm/index.ts';
import { type NewsModuleService, newsModule } from './news/index.ts';
import { type OrdersModuleService, ordersModule } from './orders/index.ts';
import { type ReductionModuleService, reductionModule } from './reduction/index.ts';
import type { ServerModule } from './types.ts';
import { type WritingModuleService, writingModule } from './writing/index.ts';

/**
 * Every module's service, as createServices (services.ts) builds them once per process. Handed to
 * `hooks`, `routes` and job handlers (`ctx.services`). A new module adds its line here and its
 * entry in `serverModules` below — nothing else (docs/architecture.md, "Adding a module").
 */
export interface Services {
  home: HomeModuleService;
  news: NewsModuleService;
  accounts: AccountsModuleService;
  orders: OrdersModuleService;
  check: CheckModuleService;
  llm: LlmModuleService;
  writing: WritingModuleService;
  reduction: ReductionModuleService;
  console: ConsoleModuleService;
  commission: CommissionModuleService;
  library: LibraryModuleService;
}

/**
 * Every feature module, in dependency order: a module's `createService` sees only the services
 * listed before it (check uses orders; orders and check register hooks on accounts). buildApp
 * registers their routes in this order; the worker runs their jobs and schedules.
 */
export const serverModules: readonly ServerModule[] = [
  housekeepingModule,
  homeModule,
  newsModule,
  accountsModule,
  ordersModule,
  checkModule,
  llmModule,
  writingModule,
  reductionModule,
  consoleModule,
  aiUsageModule,
  commissionModule,
  libraryModule,
];
