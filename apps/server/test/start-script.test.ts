// `npm start` serves a production build only: scripts/start.ts rebuilds a missing, stale or
// development build, and the web build is a production one whatever NODE_ENV the shell has.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { WEB_SOURCES, webBuildState } from '../../../scripts/web-build-state.ts';

const repoRoot = path.resolve(import.meta.dirname, '../../..');
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function fakeRepo(): { root: string; dist: string } {
  const root = mkdtempSync(path.join(os.tmpdir(), 'kyfw-start-'));
  dirs.push(root);
  for (const source of WEB_SOURCES) {
    const file = source.endsWith('.ts') || source.endsWith('.html') ? source : `${source}/x.ts`;
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), 'x');
    utimesSync(path.join(root, file), new Date('2026-01-01'), new Date('2026-01-01'));
  }
  return { root, dist: path.join(root, 'apps/web/dist') };
}

describe('which web build npm start serves', () => {
  it('rebuilds a missing, a development and a stale build, and serves a fresh production one', () => {
    const { root, dist } = fakeRepo();
    expect(webBuildState(root)).toBe('missing');
    mkdirSync(dist, { recursive: true });
    writeFileSync(path.join(dist, 'index.html'), '<!doctype html>');
    // A build from before the flag, and a development build.
    expect(webBuildState(root)).toBe('development');
    writeFileSync(path.join(dist, 'version.json'), '{"buildId":"a","production":false}');
    expect(webBuildState(root)).toBe('development');
    writeFileSync(path.join(dist, 'version.json'), '{"buildId":"a","production":true}');
    expect(webBuildState(root)).toBe('fresh');
    writeFileSync(path.join(root, 'apps/web/src/x.ts'), 'changed');
    utimesSync(path.join(dist, 'index.html'), new Date('2026-01-02'), new Date('2026-01-02'));
    expect(webBuildState(root)).toBe('stale');
  });

  it('builds the web app for production even when the shell says NODE_ENV=development', {
    timeout: 180_000,
  }, () => {
    const outDir = mkdtempSync(path.join(os.tmpdir(), 'kyfw-web-build-'));
    dirs.push(outDir);
    const result = spawnSync(
      'npm',
      ['run', '--silent', 'build', '-w', 'apps/web', '--', '--outDir', outDir],
      {
        cwd: repoRoot,
        env: { ...process.env, NODE_ENV: 'development' },
        encoding: 'utf8',
      },
    );
    expect(result.status, result.stderr).toBe(0);
    const version = JSON.parse(readFileSync(path.join(outDir, 'version.json'), 'utf8')) as {
      production: boolean;
    };
    expect(version.production).toBe(true);
    expect(webBuildState(repoRoot, outDir)).toBe('fresh');
  });
});
