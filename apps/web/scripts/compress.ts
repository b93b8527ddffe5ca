/**
 * The build's pre-compression: `<file>.br` (brotli, best) and `<file>.gz` (gzip -9) beside a text
 * asset, written once at build time and sent as they are by the server (@fastify/static
 * preCompressed, with Vary: accept-encoding). Used by vite.config.ts for the bundle and by
 * scripts/prerender.ts for the files it writes after the bundle.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

/** Text assets worth compressing; images and fonts are compressed already. */
export const COMPRESSIBLE = /\.(js|mjs|css|svg|json|txt|map|webmanifest)$/;

/** Writes the .br and .gz of `file` when it is over 1 KB (smaller files gain nothing). */
export function compressAsset(file: string): void {
  const raw = readFileSync(file);
  if (raw.length < 1024) return;
  writeFileSync(
    `${file}.br`,
    brotliCompressSync(raw, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_SIZE_HINT]: raw.length,
      },
    }),
  );
  writeFileSync(`${file}.gz`, gzipSync(raw, { level: 9 }));
}
