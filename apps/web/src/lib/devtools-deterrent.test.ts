import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { isDeterrentEnabled, looksLikeDevtoolsOpen, startDevtoolsDeterrent } from './devtools-deterrent';

type Size = { outerWidth: number; outerHeight: number; innerWidth: number; innerHeight: number };

function fakeWindow(size: Size, webdriver = false): Window {
  return { ...size, navigator: { webdriver } } as unknown as Window;
}

beforeEach(() => sessionStorage.clear());
afterEach(() => vi.useRealTimers());

describe('isDeterrentEnabled', () => {
  const win = fakeWindow({ outerWidth: 1400, outerHeight: 900, innerWidth: 1400, innerHeight: 820 });

  it('is on for a normal visitor when configuration allows it', () => {
    expect(isDeterrentEnabled({ configEnabled: true, search: '', win })).toBe(true);
  });

  it('is off when configuration switches it off', () => {
    expect(isDeterrentEnabled({ configEnabled: false, search: '', win })).toBe(false);
  });

  it('is off with ?dev=1 or ?devUser=kyfw, for the rest of the tab session', () => {
    expect(isDeterrentEnabled({ configEnabled: true, search: '?dev=1', win })).toBe(false);
    expect(isDeterrentEnabled({ configEnabled: true, search: '', win })).toBe(false);
    sessionStorage.clear();
    expect(isDeterrentEnabled({ configEnabled: true, search: '?a=1&devUser=kyfw', win })).toBe(false);
    sessionStorage.clear();
    expect(isDeterrentEnabled({ configEnabled: true, search: '?devUser=someone', win })).toBe(true);
  });

  it('is off in automated browsers', () => {
    expect(isDeterrentEnabled({ configEnabled: true, search: '', win: fakeWindow(win as never, true) })).toBe(
      false,
    );
  });
});

describe('looksLikeDevtoolsOpen', () => {
  it('sees a docked panel as a one-sided size gap', () => {
    expect(
      looksLikeDevtoolsOpen({ outerWidth: 1400, outerHeight: 900, innerWidth: 1000, innerHeight: 820 }),
    ).toBe(true);
    expect(
      looksLikeDevtoolsOpen({ outerWidth: 1400, outerHeight: 900, innerWidth: 1400, innerHeight: 500 }),
    ).toBe(true);
  });

  it('ignores normal windows, zero sizes and gaps on both sides (small viewport in a large window)', () => {
    expect(
      looksLikeDevtoolsOpen({ outerWidth: 1400, outerHeight: 900, innerWidth: 1400, innerHeight: 820 }),
    ).toBe(false);
    expect(looksLikeDevtoolsOpen({ outerWidth: 0, outerHeight: 0, innerWidth: 1280, innerHeight: 720 })).toBe(
      false,
    );
    expect(
      looksLikeDevtoolsOpen({ outerWidth: 1920, outerHeight: 1080, innerWidth: 800, innerHeight: 600 }),
    ).toBe(false);
  });
});

describe('startDevtoolsDeterrent', () => {
  it('navigates away only after two consecutive detections', () => {
    vi.useFakeTimers();
    const size: Size = { outerWidth: 1400, outerHeight: 900, innerWidth: 1400, innerHeight: 820 };
    const win = fakeWindow(size);
    const onDetected = vi.fn();
    const stop = startDevtoolsDeterrent({ win, onDetected, intervalMs: 1_000 });

    Object.assign(win, { innerWidth: 1000 });
    vi.advanceTimersByTime(1_000);
    Object.assign(win, { innerWidth: 1400 });
    vi.advanceTimersByTime(1_000);
    expect(onDetected).not.toHaveBeenCalled();

    Object.assign(win, { innerWidth: 1000 });
    vi.advanceTimersByTime(2_000);
    expect(onDetected).toHaveBeenCalledTimes(1);
    stop();
  });
});
