import { useSyncExternalStore } from 'react';
import { createStore, useStore } from '../../../lib/create-store';
import { getToken, removeToken } from '../../../lib/token';
import { getUserInfo } from '../api/get-user-info';
import { logoutRequest } from '../api/logout';
import type { UserInfo } from '../types';

/**
 * The session (spec §4): logged in when a token cookie is present and the user info holds an id.
 * `checked` turns true once the start-up user-info call has finished (or was not needed), so that
 * guarded screens can tell "not yet known" from "logged out".
 */
export interface SessionState {
  userInfo: UserInfo | null;
  checked: boolean;
}

export const sessionStore = createStore<SessionState>({ userInfo: null, checked: false });

export function useSession<T>(selector: (state: SessionState) => T): T {
  return useStore(sessionStore, selector);
}

export function isLoggedIn(state: SessionState = sessionStore.getState()): boolean {
  return getToken() !== '' && state.userInfo?.id != null && state.userInfo.id !== '';
}

export function useIsLoggedIn(): boolean {
  // Subscribed to the store; the token cookie is read with every snapshot. While the app hydrates the
  // prerendered `/` (built for a visitor not logged in), the answer is that page's: not logged in;
  // React renders again with the real one right after (useSyncExternalStore's server snapshot).
  return useSyncExternalStore(sessionStore.subscribe, isLoggedInNow, notLoggedIn);
}

const isLoggedInNow = () => isLoggedIn();
const notLoggedIn = () => false;

export function setUserInfo(userInfo: UserInfo | null): void {
  sessionStore.setState({ userInfo, checked: true });
}

/**
 * Loads the user info when a token exists (spec §4). On error the token is cleared and the user is
 * logged out; on success the whole response is stored.
 */
export async function loadUserInfo(): Promise<UserInfo | null> {
  if (!getToken()) {
    setUserInfo(null);
    return null;
  }
  const [error, user] = await getUserInfo();
  if (error || !user) {
    removeToken();
    setUserInfo(null);
    return null;
  }
  setUserInfo(user);
  return user;
}

/** Clears user info and token locally. */
export function clearSession(): void {
  removeToken();
  setUserInfo(null);
}

/**
 * Logs out: the server revokes the session (silently, with the token read before it is cleared),
 * then user info and token are cleared locally. Navigation is the caller's (default home).
 */
export function logout(): Promise<unknown> {
  const revoked = getToken() ? logoutRequest() : Promise.resolve();
  clearSession();
  return revoked;
}
