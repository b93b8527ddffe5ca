import { TOKEN_COOKIE_DAYS, TOKEN_COOKIE_NAME } from '@kyfw/contracts';
import Cookies from 'js-cookie';

/** The session token from its cookie ('' when absent). */
export function getToken(): string {
  return Cookies.get(TOKEN_COOKIE_NAME) ?? '';
}

export function hasToken(): boolean {
  return getToken() !== '';
}

/** Stores the token in a cookie for 7 days (spec §3). */
export function setToken(token: string): void {
  Cookies.set(TOKEN_COOKIE_NAME, token, {
    expires: TOKEN_COOKIE_DAYS,
    path: '/',
    sameSite: 'lax',
    secure: typeof location !== 'undefined' && location.protocol === 'https:',
  });
}

export function removeToken(): void {
  Cookies.remove(TOKEN_COOKIE_NAME, { path: '/' });
}
