/**
 * `npm run build` of the web app: the production bundle (`vite build`), then the prerendered
 * landing page written beside it (scripts/prerender.ts). Always a production build, whatever
 * NODE_ENV the shell has. `-- --outDir <dir>` puts both in another folder (the start-script test
 * builds into a temporary one).
 */
import { isAbsolute, resolve } from 'node:path';
import { build } from 'vite';
import { prerender } from './prerender.ts';

process.env.NODE_ENV = 'production';
const webRoot = resolve(import.meta.dirname, '..');
const at = process.argv.indexOf('--outDir');
const given = at >= 0 ? process.argv[at + 1] : undefined;
if (at >= 0 && !given) throw new Error('--outDir needs a folder');
const dist = given ? (isAbsolute(given) ? given : resolve(process.cwd(), given)) : resolve(webRoot, 'dist');

await build({ root: webRoot, mode: 'production', build: { outDir: dist } });
await prerender(webRoot, dist);
