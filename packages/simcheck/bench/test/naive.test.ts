import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { naiveEngine } from '../engines/naive.ts';

const dir = mkdtempSync(join(tmpdir(), 'naive-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const A = '水运工程项目作为我国航运和水利的重要组成部分，其重要性不言而喻。';
const B = '采用全过程管理模式对水运工程项目进行管理，明确了控制重点。';

describe('naive 13-character window baseline', () => {
  it('reports one maximal run per copied passage with code-point offsets on both sides', async () => {
    const lib = join(dir, 'lib.jsonl');
    writeFileSync(
      lib,
      `${JSON.stringify({ id: 'a', title: 't', text: A })}\n${JSON.stringify({ id: 'b', title: 't', text: `𠀀${B}` })}\n`,
    );
    await naiveEngine.build(lib, join(dir, 'idx'));
    const checker = await naiveEngine.open(join(dir, 'idx'));
    // 20 characters of A, an unrelated sentence, then 12 characters of B (too short to count)
    const copyA = Array.from(A).slice(3, 23).join('');
    const shortB = Array.from(B).slice(0, 12).join('');
    const input = `𠀀引言。${copyA}与此无关的一句话。${shortB}`;
    const out = await checker.check(input);
    expect(out.matches).toEqual([
      { start: 4, end: 24, sourceId: 'a', sourceStart: 3, sourceEnd: 23, kind: 'verbatim' },
    ]);
    expect(out.chars).toBe(Array.from(input).length);
    expect(out.copiedChars).toBe(20);
    // the same copy found in B after its astral first character: offsets stay in code points
    const out2 = await checker.check(Array.from(B).slice(2, 17).join(''));
    expect(out2.matches).toEqual([
      { start: 0, end: 15, sourceId: 'b', sourceStart: 3, sourceEnd: 18, kind: 'verbatim' },
    ]);
    await checker.close();
  });
});
