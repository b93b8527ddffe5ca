import { defineConfig } from 'vitest/config';

// Three projects: `unit` (pure code, fast), `integration` (the real server app + real database via
// inject; DATABASE_URL switches it from PGlite to a PostgreSQL server), and `e2e` (real Chromium
// against the built app, run by scripts/test-e2e.sh).
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: [
            'packages/*/test/**/*.test.ts',
            'packages/*/src/**/*.test.ts',
            'packages/simcheck/bench/test/**/*.test.ts',
            'scripts/**/*.test.ts',
          ],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'web',
          include: ['apps/web/src/**/*.test.{ts,tsx}'],
          environment: 'jsdom',
        },
      },
      {
        test: {
          name: 'integration',
          include: ['apps/server/test/**/*.test.ts'],
          environment: 'node',
          // Real checks on a busy 2-core machine (another CPU-heavy process beside the suite): a
          // case waits for work, never for a time; the limits only bound how long a hang takes.
          testTimeout: 90_000,
          hookTimeout: 180_000,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['apps/e2e/tests/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['apps/e2e/lib/global-setup.ts'],
          testTimeout: 120_000,
          hookTimeout: 180_000,
          fileParallelism: false,
          // a 2-core CI machine under load: give the browser time before an expectation fails
          expect: { poll: { timeout: 20_000, interval: 100 } },
        },
      },
    ],
  },
});
