// The server's module boundaries as a lint rule (`npm run lint`, scripts/test.sh): run as a script
// it checks apps/server/src against the rules below and fails on a violation that is not on the
// allowlist (scripts/server-boundaries.allow.txt, today's violations) and on an allowlist line that
// no longer matches anything, so the list only shrinks. scripts/server-boundaries.test.ts proves
// each rule fails on a probe file.
//
// Rules (docs/architecture.md, "Module boundaries"):
// - entry:   a file outside modules/<m>/ imports that module only through modules/<m>/index.ts;
// - sql:     only repositories (*.repo.ts) build or run SQL (Kysely's selectFrom / insertInto /
//            updateTable / deleteFrom / mergeInto / replaceInto, or a sql`…` template);
// - service-db: what a module hands out (an exported …Service or …Runtime interface in modules/)
//            offers operations, not the database handle `db`;
// - storage: file storage is an app-level provider, not reached through the check module
//            (`check.storage`) from another module;
// - sandbox-registry: no import-time registry of LLM sandbox templates (decision 0014): the
//            templates are passed in, not registered by `registerSandboxTemplate`.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, posix, resolve } from 'node:path';

export type Rule = 'entry' | 'sql' | 'service-db' | 'storage' | 'sandbox-registry';

export interface Violation {
  rule: Rule;
  /** Repository-relative path of the offending file. */
  file: string;
  /** What it reached (the imported file, the interface), or '' when the file is the whole story. */
  detail: string;
}

const SERVER = 'apps/server/src';
const MODULES = `${SERVER}/modules`;

/** The module a repository-relative path belongs to (modules/<m>/…), or null. */
function moduleOf(path: string): string | null {
  if (!path.startsWith(`${MODULES}/`)) return null;
  const parts = path.slice(MODULES.length + 1).split('/');
  return parts.length > 1 ? parts[0]! : null;
}

const IMPORT =
  /(?:^|[\s;])(?:import|export)\s[^'"`;]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;
const QUERY = /\.(selectFrom|insertInto|updateTable|deleteFrom|mergeInto|replaceInto)\(|\bsql(<[^`]*?>)?`/;
const SERVICE_INTERFACE = /export\s+interface\s+(\w*(?:Service|Runtime))\b[^{]*\{([\s\S]*?)\n\}/g;

/** The violations of one file (`path` repository-relative, posix separators). */
export function checkFile(path: string, source: string): Violation[] {
  const found: Violation[] = [];
  const own = moduleOf(path);
  for (const match of source.matchAll(IMPORT)) {
    const spec = match[1] ?? match[2]!;
    if (!spec.startsWith('.')) continue;
    const target = posix.normalize(posix.join(posix.dirname(path), spec));
    const other = moduleOf(target);
    if (other && other !== own && target !== `${MODULES}/${other}/index.ts`) {
      found.push({ rule: 'entry', file: path, detail: target });
    }
  }
  if (!path.endsWith('.repo.ts') && QUERY.test(source)) found.push({ rule: 'sql', file: path, detail: '' });
  if (own) {
    for (const match of source.matchAll(SERVICE_INTERFACE)) {
      if (/^\s{2}(readonly\s+)?db\??:/m.test(match[2]!)) {
        found.push({ rule: 'service-db', file: path, detail: match[1]! });
      }
    }
  }
  if (own !== 'check' && /\bcheck\.storage\b/.test(source))
    found.push({ rule: 'storage', file: path, detail: '' });
  if (/\bregisterSandboxTemplate\(/.test(source))
    found.push({ rule: 'sandbox-registry', file: path, detail: '' });
  return found;
}

/** One allowlist line: `<rule> <file>[ <detail>]`. */
export function keyOf(v: Violation): string {
  return [v.rule, v.file, v.detail].filter(Boolean).join(' ');
}

function listSources(root: string, dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) out.push(...listSources(root, path));
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')) out.push(path);
  }
  return out;
}

/** Every violation under apps/server/src of the tree at `root`. */
export function checkTree(root: string): Violation[] {
  return listSources(root, SERVER).flatMap((path) => checkFile(path, readFileSync(join(root, path), 'utf8')));
}

/** Reads an allowlist: one key a line; blank lines and # comments ignored. */
export function parseAllowlist(text: string): Set<string> {
  return new Set(
    text
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line && !line.startsWith('#')),
  );
}

/** New violations (not allowed) and stale allowlist lines (nothing matches them any more). */
export function compare(violations: Violation[], allowed: Set<string>): { added: string[]; stale: string[] } {
  const keys = new Set(violations.map(keyOf));
  return {
    added: [...keys].filter((k) => !allowed.has(k)).sort(),
    stale: [...allowed].filter((k) => !keys.has(k)).sort(),
  };
}

const ALLOWLIST = 'scripts/server-boundaries.allow.txt';

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  const root = resolve(dirname(import.meta.filename), '..');
  const violations = checkTree(root);
  if (process.argv.includes('--print')) {
    for (const key of [...new Set(violations.map(keyOf))].sort()) console.log(key);
    process.exit(0);
  }
  const { added, stale } = compare(violations, parseAllowlist(readFileSync(join(root, ALLOWLIST), 'utf8')));
  for (const key of added) console.error(`server boundary broken: ${key}`);
  for (const key of stale) console.error(`fixed, remove from ${ALLOWLIST}: ${key}`);
  if (added.length > 0 || stale.length > 0) {
    console.error('(rules: scripts/server-boundaries.ts; docs/architecture.md, "Module boundaries")');
    process.exit(1);
  }
  console.log(
    `server boundaries: ${new Set(violations.map(keyOf)).size} known violations left (${ALLOWLIST})`,
  );
}
