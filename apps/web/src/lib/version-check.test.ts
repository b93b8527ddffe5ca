import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { isNewBuild, startVersionPolling } from './version-check';

function versionFetch(buildIds: string[]) {
  let i = 0;
  return vi.fn(async (_url: RequestInfo | URL, _init?: RequestInit) => {
    const buildId = buildIds[Math.min(i, buildIds.length - 1)];
    i += 1;
    return new Response(JSON.stringify({ buildId, builtAt: '2025-05-28T09:52:01.000Z' }), { status: 200 });
  });
}

describe('isNewBuild', () => {
  it('is true only for a well-formed, different build id', () => {
    expect(isNewBuild('a1', { buildId: 'b2' })).toBe(true);
    expect(isNewBuild('a1', { buildId: 'a1' })).toBe(false);
    expect(isNewBuild('a1', { buildId: '' })).toBe(false);
    expect(isNewBuild('a1', { nope: 1 })).toBe(false);
    expect(isNewBuild('a1', null)).toBe(false);
  });

  it('never reloads a development bundle', () => {
    expect(isNewBuild('dev', { buildId: 'b2' })).toBe(false);
  });
});

describe('startVersionPolling', () => {
  let stop: (() => void) | undefined;
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => {
    stop?.();
    vi.useRealTimers();
  });

  it('fetches /version.json without cache every 60 s and reloads when the build changed', async () => {
    const fetchImpl = versionFetch(['build-1', 'build-2']);
    const onNewBuild = vi.fn(() => true);
    stop = startVersionPolling({ currentBuildId: 'build-1', onNewBuild, fetchImpl });

    await vi.advanceTimersByTimeAsync(59_999);
    expect(fetchImpl).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(fetchImpl).toHaveBeenCalledTimes(1);
    expect(fetchImpl.mock.calls[0][0]).toBe('/version.json');
    expect(fetchImpl.mock.calls[0][1]).toMatchObject({ cache: 'no-store' });
    expect(onNewBuild).not.toHaveBeenCalled();

    await vi.advanceTimersByTimeAsync(60_000);
    expect(onNewBuild).toHaveBeenCalledTimes(1);

    // Once a reload started, polling stops.
    await vi.advanceTimersByTimeAsync(180_000);
    expect(fetchImpl).toHaveBeenCalledTimes(2);
  });

  it('also checks when the tab regains focus', async () => {
    const fetchImpl = versionFetch(['build-2']);
    const onNewBuild = vi.fn(() => true);
    stop = startVersionPolling({ currentBuildId: 'build-1', onNewBuild, fetchImpl });
    window.dispatchEvent(new Event('focus'));
    await vi.advanceTimersByTimeAsync(0);
    expect(fetchImpl).toHaveBeenCalledTimes(1);
    expect(onNewBuild).toHaveBeenCalledTimes(1);
  });

  it('keeps polling when the reload was held back, and survives fetch failures', async () => {
    let calls = 0;
    const fetchImpl = vi.fn(async () => {
      calls += 1;
      if (calls === 1) throw new TypeError('offline');
      return new Response(JSON.stringify({ buildId: 'build-2' }), { status: 200 });
    });
    const onNewBuild = vi.fn(() => false);
    stop = startVersionPolling({ currentBuildId: 'build-1', onNewBuild, fetchImpl });
    await vi.advanceTimersByTimeAsync(60_000);
    expect(onNewBuild).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(60_000);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(onNewBuild).toHaveBeenCalledTimes(2);
  });
});
