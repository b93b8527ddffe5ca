/**
 * The CLI contract (issue 4): index a JSON-lines library, check a .txt, print the JSON object.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIBRARY, makeTempDir, OWN_OTHER, SRC_EDUCATION, SRC_SOIL, sliceCodePoints } from './fixtures.ts';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../../..');
const main = path.join(root, 'packages/simcheck/src/cli/main.ts');
const localNode = path.join(root, 'node_modules/.bin/node');
const node = fs.existsSync(localNode) ? localNode : process.execPath;

async function simcheck(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(node, [main, ...args], { cwd: root, maxBuffer: 1 << 24 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

describe('simcheck CLI', () => {
  let dir: string;
  beforeAll(() => {
    dir = makeTempDir('cli');
    // Numeric ids and extra fields are allowed; the second half comes gzipped, added incrementally.
    const lines = LIBRARY.map((d, i) =>
      JSON.stringify({ id: i === 0 ? 1 : d.id, title: d.title, text: d.text, extra: 'x' }),
    );
    fs.writeFileSync(path.join(dir, 'a.jsonl'), `${lines.slice(0, 3).join('\n')}\nnot json\n`);
    fs.writeFileSync(path.join(dir, 'b.jsonl.gz'), zlib.gzipSync(`${lines.slice(3).join('\n')}\n`));
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('indexes incrementally and checks a .txt (UTF-8 and GB18030), printing the contract JSON', async () => {
    const idx = path.join(dir, 'index');
    const first = await simcheck('index', '--corpus', path.join(dir, 'a.jsonl'), '--out', idx);
    expect(first.code).toBe(0);
    expect(first.stderr).toContain('第 4 行不是合法的 JSON');
    expect((await simcheck('index', '--corpus', path.join(dir, 'b.jsonl.gz'), '--out', idx)).code).toBe(0);

    const text = `第一章 绪论\n${OWN_OTHER}\n${SRC_SOIL}\n第二章 方法\n${SRC_EDUCATION}\n`;
    fs.writeFileSync(path.join(dir, 'thesis.txt'), text);
    const out = await simcheck('check', '--index', idx, '--json', path.join(dir, 'thesis.txt'));
    expect(out.code).toBe(0);
    const report = JSON.parse(out.stdout);
    expect(Object.keys(report)).toEqual(['chars', 'copiedChars', 'ratio', 'matches', 'sections']);
    expect(report.chars).toBe(Array.from(text).length);
    expect(report.matches.map((m: { sourceId: string }) => m.sourceId)).toEqual(['soil', 'edu']);
    for (const m of report.matches) {
      expect(Object.keys(m)).toEqual(['start', 'end', 'sourceId', 'sourceStart', 'sourceEnd', 'kind']);
      expect(m.kind).toBe('verbatim');
    }
    expect(sliceCodePoints(text, report.matches[0].start, report.matches[0].end)).toBe(SRC_SOIL);
    expect(report.sections.map((s: { title: string }) => s.title)).toEqual(['第一章 绪论', '第二章 方法']);
    expect(Object.keys(report.sections[0])).toEqual(['title', 'start', 'end', 'ratio']);

    // The same text saved as GB18030 gives the same report.
    const gb = encodeGb18030(text);
    fs.writeFileSync(path.join(dir, 'thesis-gb.txt'), gb);
    const outGb = await simcheck('check', '--index', idx, '--json', path.join(dir, 'thesis-gb.txt'));
    expect(JSON.parse(outGb.stdout)).toEqual(report);
  }, 60_000);

  it('exits non-zero with a clear message on errors', async () => {
    const missing = await simcheck(
      'check',
      '--index',
      path.join(dir, 'nope'),
      '--json',
      path.join(dir, 'x.txt'),
    );
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/找不到待检测文件|索引目录/);
    const usage = await simcheck('index', '--corpus');
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('--corpus 需要一个值');
    const unknown = await simcheck('frobnicate');
    expect(unknown.code).toBe(2);
  }, 30_000);
});

/** GB18030 encoder for the characters used here (TextEncoder only does UTF-8): via a decode table. */
function encodeGb18030(text: string): Uint8Array {
  const decoder = new TextDecoder('gb18030');
  const table = new Map<string, number[]>();
  for (let hi = 0x81; hi <= 0xfe; hi++) {
    for (let lo = 0x40; lo <= 0xfe; lo++) {
      if (lo === 0x7f) continue;
      const ch = decoder.decode(new Uint8Array([hi, lo]));
      if (ch.length === 1 && !table.has(ch)) table.set(ch, [hi, lo]);
    }
  }
  const out: number[] = [];
  for (const ch of text) {
    const code = ch.codePointAt(0)!;
    if (code < 0x80) out.push(code);
    else {
      const bytes = table.get(ch);
      if (!bytes) throw new Error(`no GB18030 two-byte code for ${ch}`);
      out.push(...bytes);
    }
  }
  return new Uint8Array(out);
}
