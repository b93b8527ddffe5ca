// Scaled-mode worker entry (`npm run worker`): only the job loop and the scheduler, against the
// PostgreSQL server shared with the API processes. Start as many as needed, on any machine. The
// handlers get the same services as in the API process (createServices, role 'worker').
import { startScheduler, startWorker } from './jobs/index.ts';
import { createLogger } from './lib/logger.ts';
import { loadConfigOrExit, onShutdownSignal, openDatabase } from './runtime.ts';
import { createServices } from './services.ts';

const config = loadConfigOrExit();
if (!config.databaseUrl) {
  console.error(
    'npm run worker needs DATABASE_URL (scaled mode with a PostgreSQL server). ' +
      'In the embedded mode `npm start` already runs the worker in its own process.',
  );
  process.exit(1);
}
const logger = createLogger(config);

try {
  const database = await openDatabase(config, logger);
  const root = await createServices({ config, db: database.db, logger, role: 'worker' });
  const worker = startWorker({
    db: database.db,
    definitions: root.jobs,
    services: root.services,
    concurrency: config.workerConcurrency,
    leaseMs: config.jobLeaseMs,
    logger,
  });
  const scheduler = startScheduler({ db: database.db, schedules: root.schedules, logger });
  onShutdownSignal(logger, async () => {
    scheduler.stop();
    await worker.stop();
    await root.close();
    await database.close();
  });
} catch (error) {
  logger.fatal({ err: error }, 'worker failed to start');
  process.exit(1);
}
