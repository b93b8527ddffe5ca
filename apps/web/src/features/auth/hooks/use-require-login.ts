import { MESSAGES } from '@kyfw/contracts';
import { useCallback } from 'react';
import { useLocation } from 'react-router';
import { paths } from '../../../config/paths';
import { toast, uiActions } from '../../../stores/ui-store';
import { isLoggedIn } from '../stores/session-store';

/**
 * Guard for actions (spec §4). `requireLogin(action)` runs the action when logged in and returns
 * true; when logged out it shows the warning 请先登录！, opens the login dialog unless the current
 * page is home, and returns false.
 */
export function useRequireLogin(): (action?: () => void) => boolean {
  const { pathname } = useLocation();
  return useCallback(
    (action?: () => void) => {
      if (isLoggedIn()) {
        action?.();
        return true;
      }
      toast.warning(MESSAGES.LOGIN_REQUIRED_EXCLAIM);
      if (pathname !== paths.index) uiActions.openLoginModal();
      return false;
    },
    [pathname],
  );
}
