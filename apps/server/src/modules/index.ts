import { accountsModule } from './accounts/accounts.module.ts';
import { checkModule } from './check/check.module.ts';
import { consoleModule } from './console/console.module.ts';
import { homeModule } from './home/home.routes.ts';
import { siteQrModule } from './home/site-qr.routes.ts';
import { llmModule } from './llm/llm.module.ts';
import { ordersModule } from './orders/orders.module.ts';
import { reductionModule } from './reduction/reduction.module.ts';
import type { AppModule } from './types.ts';
import { writingModule } from './writing/writing.module.ts';

/** Every feature module, registered by buildApp in this order. A new module adds one line here. */
export const appModules: readonly AppModule[] = [
  homeModule,
  siteQrModule,
  accountsModule,
  ordersModule,
  checkModule,
  llmModule,
  writingModule,
  reductionModule,
  consoleModule,
];
