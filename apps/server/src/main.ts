// Embedded/API entry (`npm start`): one process serving the API, the built web app and — unless
// WORKER_IN_PROCESS=false — the job worker loop, all on the services of one createServices.
import { buildApp } from './app.ts';
import { startScheduler, startWorker } from './jobs/index.ts';
import { DataDirLockedError } from './lib/data-dir-lock.ts';
import { createMovableClock } from './lib/dev-clock.ts';
import { createLogger } from './lib/logger.ts';
import { loadConfigOrExit, onShutdownSignal, openDatabase } from './runtime.ts';
import { createServices } from './services.ts';

const config = loadConfigOrExit();
const logger = createLogger(config);

try {
  const database = await openDatabase(config, logger);
  // NODE_ENV=test (the end-to-end journeys): a clock they move through /__dev/clock instead of waiting.
  const devClock = config.nodeEnv === 'test' ? createMovableClock() : undefined;
  const root = await createServices({ config, db: database.db, logger, role: 'app', clock: devClock?.now });
  const app = await buildApp({ config, db: database.db, services: root, logger, devClock });

  const worker = config.workerInProcess
    ? startWorker({
        db: database.db,
        definitions: root.jobs,
        services: root.services,
        concurrency: config.workerConcurrency,
        leaseMs: config.jobLeaseMs,
        logger,
      })
    : undefined;
  const scheduler = worker
    ? startScheduler({ db: database.db, schedules: root.schedules, logger })
    : undefined;
  if (!worker && database.kind === 'pglite') {
    // An embedded database belongs to this process alone, so no other worker can run these jobs.
    logger.warn('WORKER_IN_PROCESS=false with the embedded database: background jobs will not run');
  }

  onShutdownSignal(logger, async () => {
    scheduler?.stop();
    // app.close stops accepting connections and lets in-flight requests finish.
    await Promise.all([app.close(), worker?.stop()]);
    await root.close();
    await database.close();
  });

  await app.listen({ port: config.port, host: config.host });
  // Behind a load balancer every process has the same public URL: say which one this is.
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const own = `http://${config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host}:${port}`;
  logger.info(
    { url: config.publicBaseUrl, host: config.host, port, pid: process.pid },
    `kyfw 已启动：${config.publicBaseUrl}（本进程 ${own}，pid ${process.pid}）`,
  );
} catch (error) {
  if (error instanceof DataDirLockedError) {
    console.error(error.message);
    process.exit(1);
  }
  logger.fatal({ err: error }, 'failed to start');
  process.exit(1);
}
