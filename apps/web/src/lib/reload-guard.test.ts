import { beforeEach, describe, expect, it, vi } from 'vitest';
import { isChunkLoadError, RELOAD_GUARD_KEY, reloadWithGuard } from './reload-guard';

beforeEach(() => sessionStorage.clear());

describe('reloadWithGuard', () => {
  it('reloads once, then holds further reloads for 10 seconds', () => {
    let now = 1_000_000;
    const reload = vi.fn();
    const opts = { now: () => now, reload };

    expect(reloadWithGuard(opts)).toBe(true);
    expect(reload).toHaveBeenCalledTimes(1);
    expect(sessionStorage.getItem(RELOAD_GUARD_KEY)).toBe(String(1_000_000));

    now += 9_999;
    expect(reloadWithGuard(opts)).toBe(false);
    expect(reload).toHaveBeenCalledTimes(1);

    now += 1;
    expect(reloadWithGuard(opts)).toBe(true);
    expect(reload).toHaveBeenCalledTimes(2);
  });

  it('ignores a corrupt stored value', () => {
    sessionStorage.setItem(RELOAD_GUARD_KEY, 'garbage');
    const reload = vi.fn();
    expect(reloadWithGuard({ reload })).toBe(true);
  });
});

describe('isChunkLoadError', () => {
  it('recognises the browsers’ dynamic-import failures', () => {
    expect(
      isChunkLoadError(new TypeError('Failed to fetch dynamically imported module: /assets/check-x.js')),
    ).toBe(true);
    expect(isChunkLoadError(new TypeError('error loading dynamically imported module'))).toBe(true);
    expect(isChunkLoadError(new TypeError('Importing a module script failed.'))).toBe(true);
    expect(isChunkLoadError(new Error('Unable to preload CSS for /assets/x.css'))).toBe(true);
  });

  it('leaves other errors alone', () => {
    expect(isChunkLoadError(new Error('Cannot read properties of undefined'))).toBe(false);
    expect(isChunkLoadError(null)).toBe(false);
  });
});
