import { randomBytes } from 'node:crypto';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import react from '@vitejs/plugin-react';
import type { Plugin } from 'vite';
import { defineConfig } from 'vite';
import { COMPRESSIBLE, compressAsset } from './scripts/compress.ts';

/**
 * Build metadata for the "new build" reload (spec §2): one id per build, embedded in the bundle as
 * `__KYFW_BUILD_ID__` and written to dist/version.json, which the app polls.
 */
function buildMeta(): Plugin {
  const builtAt = new Date().toISOString();
  const buildId = `${Date.now().toString(36)}-${randomBytes(4).toString('hex')}`;
  let production = true;
  return {
    name: 'kyfw-build-meta',
    config(_config, { command }) {
      return { define: { __KYFW_BUILD_ID__: JSON.stringify(command === 'build' ? buildId : 'dev') } };
    },
    configResolved(resolved) {
      production = resolved.isProduction;
    },
    generateBundle() {
      // `production` tells scripts/start.ts whether this build may be served (a development React
      // bundle is bigger and runs StrictMode's double effects).
      this.emitFile({
        type: 'asset',
        fileName: 'version.json',
        source: `${JSON.stringify({ buildId, builtAt, production })}\n`,
      });
    },
  };
}

/**
 * Writes `<file>.br` (brotli, best) and `<file>.gz` (gzip -9) beside every text asset over 1 KB
 * (scripts/compress.ts), once at build time; the server sends them to browsers that accept them (@fastify/static
 * preCompressed, with Vary: accept-encoding). index.html is sent with its runtime config injected,
 * so the server compresses it per answer instead.
 */
function compressAssets(): Plugin {
  let outDir = 'dist';
  return {
    name: 'kyfw-compress-assets',
    apply: 'build',
    configResolved(resolved) {
      outDir = resolved.build.outDir.startsWith('/')
        ? resolved.build.outDir
        : join(resolved.root, resolved.build.outDir);
    },
    closeBundle() {
      const walk = (dir: string): string[] =>
        readdirSync(dir).flatMap((name) => {
          const path = join(dir, name);
          return statSync(path).isDirectory() ? walk(path) : [path];
        });
      for (const file of walk(outDir)) {
        if (COMPRESSIBLE.test(file) && !file.includes('/.vite/')) compressAsset(file);
      }
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

/**
 * antd's map tokens (palettes, sizes, control heights) for the theme's seed, computed here once and
 * embedded as `__KYFW_ANTD_MAP_TOKEN__`, so the page does not derive them on its first render
 * (src/app/theme.ts, `buildTimeAlgorithm`, issue 25). The seed is antd's default seed with the
 * theme's tokens over it, as antd's ConfigProvider merges them; the app checks that the seed it is
 * given is this one before it uses the map.
 */
function antdMapToken(): Plugin {
  return {
    name: 'kyfw-antd-map-token',
    async config() {
      const [{ theme: antd }, { theme }] = await Promise.all([import('antd'), import('./src/app/theme.ts')]);
      const seed = { ...antd.defaultSeed, ...theme.token };
      const map = antd.defaultAlgorithm(seed);
      return { define: { __KYFW_ANTD_MAP_TOKEN__: JSON.stringify({ seed, map }) } };
    },
  };
}

const API_TARGET = process.env.KYFW_API_TARGET ?? 'http://localhost:3000';

export default defineConfig({
  plugins: [react(), buildMeta(), antdMapToken(), pureContracts(), compressAssets()],
  server: {
    port: 5173,
    proxy: {
      '/kyfw': { target: API_TARGET, changeOrigin: true },
      '/__dev': { target: API_TARGET, changeOrigin: true },
      '/media': { target: API_TARGET, changeOrigin: true },
    },
  },
  preview: {
    proxy: {
      '/kyfw': { target: API_TARGET, changeOrigin: true },
      '/__dev': { target: API_TARGET, changeOrigin: true },
      '/media': { target: API_TARGET, changeOrigin: true },
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
