import { MESSAGES } from '@kyfw/contracts';
import { redirect } from 'react-router';
import { paths } from '../config/paths';
import { hasToken } from '../lib/token';
import { toast } from '../stores/ui-store';

/**
 * Auth guard for every /user route (spec §2/§6): without a token cookie, warn 请先登录 and
 * redirect to /. Used as the /user route's loader with `shouldRevalidate: () => true`, so it also
 * runs when moving between /user pages.
 */
export function requireAuthLoader(): null {
  if (!hasToken()) {
    toast.warning(MESSAGES.LOGIN_REQUIRED);
    throw redirect(paths.index);
  }
  return null;
}
