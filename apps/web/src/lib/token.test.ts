import Cookies from 'js-cookie';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { getToken, hasToken, removeToken, setToken } from './token';

afterEach(() => {
  vi.restoreAllMocks();
  removeToken();
});

describe('token cookie', () => {
  it('is stored in the cookie "token" for 7 days', () => {
    const set = vi.spyOn(Cookies, 'set');
    setToken('abc');
    expect(set).toHaveBeenCalledWith('token', 'abc', expect.objectContaining({ expires: 7, path: '/' }));
    expect(getToken()).toBe('abc');
    expect(hasToken()).toBe(true);
  });

  it('reads as empty once removed', () => {
    setToken('abc');
    removeToken();
    expect(getToken()).toBe('');
    expect(hasToken()).toBe(false);
  });
});
