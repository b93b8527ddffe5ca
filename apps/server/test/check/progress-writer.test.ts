import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createProgressWriter } from '../../src/modules/check/progress-writer.ts';

// The comparing stage's progress arrives as often as the engine reports it; the database sees at
// most one write per interval, only the latest value, never a smaller one, and the last value
// before the next stage. The clock is vitest's fake one: the tests step it and look at what was
// written after each step (nothing here depends on how fast the machine is).

type Write = { percent: number };

function recorder(options: { slowMs?: number; failing?: number[] } = {}) {
  const writes: Write[] = [];
  let running = 0;
  let overlapping = false;
  const write = async (percent: number) => {
    running++;
    if (running > 1) overlapping = true;
    writes.push({ percent });
    if (options.slowMs) await new Promise((r) => setTimeout(r, options.slowMs));
    running--;
    if (options.failing?.includes(percent)) throw new Error(`write ${percent} failed`);
  };
  return { writes, write, overlapping: () => overlapping };
}

beforeEach(() => {
  vi.useFakeTimers({ now: 1_000_000 });
});

afterEach(() => {
  vi.useRealTimers();
});

describe('progress writer', () => {
  it('writes the first change at once, then at most once per interval and only the latest value', async () => {
    const r = recorder();
    const writer = createProgressWriter({ start: 10, intervalMs: 250, write: r.write });
    writer.update(12);
    await vi.advanceTimersByTimeAsync(0);
    expect(r.writes.map((w) => w.percent)).toEqual([12]);
    // Many updates within one interval: one write, of the latest value, when the interval is over.
    for (let p = 13; p <= 40; p++) {
      writer.update(p);
      await vi.advanceTimersByTimeAsync(5);
    }
    // 140 ms after the first write: the rest of the interval is waited for.
    expect(r.writes.map((w) => w.percent)).toEqual([12]);
    await vi.advanceTimersByTimeAsync(109);
    expect(r.writes.map((w) => w.percent)).toEqual([12]);
    await vi.advanceTimersByTimeAsync(1);
    expect(r.writes.map((w) => w.percent)).toEqual([12, 40]);
    // Then a steady stream, an update every 20 ms: in each interval one write, of the latest value.
    let next = 41;
    for (let interval = 0; interval < 8; interval++) {
      const before = r.writes.length;
      let latest = 0;
      for (let step = 0; step < 250 / 25; step++) {
        latest = next++;
        writer.update(latest);
        await vi.advanceTimersByTimeAsync(25);
      }
      expect(r.writes.length).toBe(before + 1);
    }
    await vi.advanceTimersByTimeAsync(250);
    const percents = r.writes.map((w) => w.percent);
    expect(percents.at(-1)).toBe(next - 1);
    for (let i = 1; i < percents.length; i++) expect(percents[i]).toBeGreaterThan(percents[i - 1]!);
    await writer.close();
  });

  it('ignores smaller and equal values, including the start value', async () => {
    const r = recorder();
    const writer = createProgressWriter({ start: 10, intervalMs: 250, write: r.write });
    writer.update(10);
    writer.update(5);
    await vi.advanceTimersByTimeAsync(1000);
    expect(r.writes).toEqual([]);
    writer.update(30);
    await vi.advanceTimersByTimeAsync(0);
    writer.update(20);
    writer.update(30);
    await vi.advanceTimersByTimeAsync(1000);
    expect(r.writes.map((w) => w.percent)).toEqual([30]);
    await writer.close();
  });

  it('flush writes the latest value now, without waiting for the interval, and waits for it', async () => {
    const r = recorder({ slowMs: 40 });
    const writer = createProgressWriter({ start: 10, intervalMs: 250, write: r.write });
    writer.update(24);
    writer.update(45);
    writer.update(80);
    let flushed = false;
    const flush = writer.flush().then(() => {
      flushed = true;
    });
    await vi.advanceTimersByTimeAsync(39);
    expect(flushed).toBe(false);
    await vi.advanceTimersByTimeAsync(100);
    // Done 139 ms after the first write: the interval (250) was not waited for.
    await flush;
    expect(r.writes.map((w) => w.percent)).toEqual([24, 80]);
    expect(r.overlapping()).toBe(false);
    await writer.flush(); // nothing new: no write
    expect(r.writes).toHaveLength(2);
    await writer.close();
  });

  it('one write at a time: a slow database delays the next write instead of piling them up', async () => {
    const r = recorder({ slowMs: 600 });
    const writer = createProgressWriter({ start: 0, intervalMs: 250, write: r.write });
    for (let p = 1; p <= 60; p++) {
      writer.update(p);
      await vi.advanceTimersByTimeAsync(50);
    }
    await vi.advanceTimersByTimeAsync(2000);
    expect(r.overlapping()).toBe(false);
    expect(r.writes.length).toBeLessThanOrEqual(Math.ceil(5000 / 600) + 1);
    expect(r.writes.at(-1)!.percent).toBe(60);
    await writer.close();
  });

  it('close drops a waiting value and waits for the write under way; a failed write is reported', async () => {
    const errors: unknown[] = [];
    const r = recorder({ slowMs: 100, failing: [20] });
    const writer = createProgressWriter({
      start: 10,
      intervalMs: 250,
      write: r.write,
      onError: (e) => errors.push(e),
    });
    writer.update(20);
    writer.update(30); // waits for the interval
    const closing = writer.close();
    await vi.advanceTimersByTimeAsync(1000);
    await closing;
    writer.update(90);
    await vi.advanceTimersByTimeAsync(1000);
    expect(r.writes.map((w) => w.percent)).toEqual([20]);
    expect(errors).toHaveLength(1);
    expect((errors[0] as Error).message).toBe('write 20 failed');
  });
});
