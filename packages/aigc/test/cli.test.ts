/** The CLI contract (issue 14): `aigc detect --json <file>` prints {score, reliable, paragraphs}. */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { extractDocument } from '@kyfw/simcheck/extract';
import { afterAll, describe, expect, it } from 'vitest';
import { detectAigc } from '../src/index.ts';
import { PERSONAL, TEMPLATED } from './samples.ts';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../../..');
const main = path.join(root, 'packages/aigc/src/cli/main.ts');
const localNode = path.join(root, 'node_modules/.bin/node');
const node = fs.existsSync(localNode) ? localNode : process.execPath;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'aigc-cli-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

async function aigc(...args: string[]) {
  try {
    const { stdout, stderr } = await run(node, [main, ...args], { cwd: root });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

describe('aigc CLI', () => {
  it('prints exactly score, reliable and paragraphs with code-point offsets into the text', async () => {
    const file = path.join(dir, 'paper.txt');
    fs.writeFileSync(file, `标题\n${TEMPLATED}\n\n${PERSONAL}\n`);
    const out = await aigc('detect', '--json', file);
    expect(out.code).toBe(0);
    const json = JSON.parse(out.stdout) as {
      score: number;
      reliable: boolean;
      paragraphs: { start: number; end: number; score: number }[];
    };
    expect(Object.keys(json).sort()).toEqual(['paragraphs', 'reliable', 'score']);
    const text = [
      ...(await extractDocument(new Uint8Array(fs.readFileSync(file)), { fileName: 'paper.txt' })).text,
    ];
    expect(json.paragraphs.map((p) => text.slice(p.start, p.end).join(''))).toEqual([TEMPLATED, PERSONAL]);
    for (const p of json.paragraphs) expect(Object.keys(p).sort()).toEqual(['end', 'score', 'start']);
    expect(json.score).toBe(detectAigc(text.join('')).score);
  });

  it('reads a Word .doc through the check’s extraction', async () => {
    const file = path.join(root, 'packages/simcheck/test/extract/fixtures/thesis.doc');
    const out = await aigc('detect', '--json', file);
    expect(out.code).toBe(0);
    const json = JSON.parse(out.stdout) as { score: number; paragraphs: unknown[] };
    expect(json.paragraphs.length).toBeGreaterThan(0);
    expect(json.score).toBeGreaterThanOrEqual(0);
    expect(json.score).toBeLessThanOrEqual(100);
  });

  it('exits 1 with a Chinese message for a missing file and 2 for bad usage', async () => {
    const missing = await aigc('detect', '--json', path.join(dir, 'none.txt'));
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('找不到待检测文件');
    expect((await aigc('detect', '--bogus', 'x.txt')).code).toBe(2);
    expect((await aigc()).code).toBe(2);
  });
});
