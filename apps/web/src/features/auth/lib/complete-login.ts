import { AFTER_LOGIN_DELAY_MS, MESSAGES } from '@kyfw/contracts';
import { setToken } from '../../../lib/token';
import { toast } from '../../../stores/ui-store';
import { loadUserInfo } from '../stores/session-store';
import { authTexts } from '../texts';

export function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * After a successful login (spec §4): store the token (7-day cookie), wait 1 s, load the user info
 * and, once it is there, show 欢迎登录！. Resolves true when the user is logged in; the caller then
 * fires its success event.
 */
export async function completeLogin(token: string, welcome: string = MESSAGES.WELCOME): Promise<boolean> {
  setToken(token);
  await delay(AFTER_LOGIN_DELAY_MS);
  const user = await loadUserInfo();
  if (!user) {
    toast.error(authTexts.userInfoFailed);
    return false;
  }
  toast.success(welcome);
  return true;
}
