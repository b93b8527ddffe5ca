import { randomBytes } from 'node:crypto';
import react from '@vitejs/plugin-react';
import type { Plugin } from 'vite';
import { defineConfig } from 'vite';

/**
 * Build metadata for the "new build" reload (spec §2): one id per build, embedded in the bundle as
 * `__KYFW_BUILD_ID__` and written to dist/version.json, which the app polls.
 */
function buildMeta(): Plugin {
  const builtAt = new Date().toISOString();
  const buildId = `${Date.now().toString(36)}-${randomBytes(4).toString('hex')}`;
  return {
    name: 'kyfw-build-meta',
    config(_config, { command }) {
      return { define: { __KYFW_BUILD_ID__: JSON.stringify(command === 'build' ? buildId : 'dev') } };
    },
    generateBundle() {
      this.emitFile({
        type: 'asset',
        fileName: 'version.json',
        source: `${JSON.stringify({ buildId, builtAt })}\n`,
      });
    },
  };
}

/**
 * @kyfw/contracts is pure (constants, schemas, helpers) but its package.json does not say so, and
 * its zod schemas are built at module top level; without this the web bundle would carry zod
 * for the few constants it imports. Marking its modules side-effect free lets unused ones drop.
 */
function pureContracts(): Plugin {
  return {
    name: 'kyfw-pure-contracts',
    transform: {
      filter: { id: /[\\/]packages[\\/]contracts[\\/]src[\\/]/ },
      handler(code) {
        return { code, moduleSideEffects: false };
      },
    },
  };
}

const API_TARGET = process.env.KYFW_API_TARGET ?? 'http://localhost:3000';

export default defineConfig({
  plugins: [react(), buildMeta(), pureContracts()],
  server: {
    port: 5173,
    proxy: {
      '/kyfw': { target: API_TARGET, changeOrigin: true },
      '/__dev': { target: API_TARGET, changeOrigin: true },
    },
  },
  preview: {
    proxy: {
      '/kyfw': { target: API_TARGET, changeOrigin: true },
      '/__dev': { target: API_TARGET, changeOrigin: true },
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    assetsDir: 'assets',
    target: 'es2022',
    sourcemap: false,
    // dist/.vite/manifest.json: lets scripts/landing-size.ts (and the bench) follow the landing page's imports.
    manifest: true,
    chunkSizeWarningLimit: 600,
    rolldownOptions: {
      output: {
        // Long-lived vendor chunks shared by every page; pages stay in their own lazy chunks.
        codeSplitting: {
          groups: [
            {
              name: 'react',
              test: /node_modules[\\/](react|react-dom|scheduler|react-router)[\\/]/,
              priority: 30,
            },
          ],
        },
      },
    },
  },
});
