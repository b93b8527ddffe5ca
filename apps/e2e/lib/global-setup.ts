// The e2e project's globalSetup (vitest.config.ts): the migrated database template every journey's
// data folder starts from (lib/server.ts), made once before the journeys.
import { ensureMigratedTemplate } from './server.ts';

export default async function setup(): Promise<void> {
  await ensureMigratedTemplate();
}
