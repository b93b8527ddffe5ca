import { housekeepingModule } from '../jobs/housekeeping.jobs.ts';
import { type AccountsModuleService, accountsModule } from './accounts/accounts.module.ts';
import { type CheckModuleService, checkModule } from './check/check.module.ts';
import { type CommissionModuleService, commissionModule } from './commission/commission.module.ts';
import { type ConsoleModuleService, consoleModule } from './console/console.module.ts';
import { type HomeModuleService, homeModule } from './home/home.module.ts';
import { type LibraryModuleService, libraryModule } from './library/library.module.ts';
import { aiUsageModule } from './llm/ai-usage.module.ts';
import { type LlmModuleService, llmModule } from './llm/llm.module.ts';
import { type NewsModuleService, newsModule } from './news/news.module.ts';
import { type OrdersModuleService, ordersModule } from './orders/orders.module.ts';
import { type ReductionModuleService, reductionModule } from './reduction/reduction.module.ts';
import type { ServerModule } from './types.ts';
import { type WritingModuleService, writingModule } from './writing/writing.module.ts';

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
