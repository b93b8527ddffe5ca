import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { paths } from '../../../config/paths';
import { getToken } from '../../../lib/token';
import { toast } from '../../../stores/ui-store';
import { logout } from '../stores/session-store';
import { authTexts } from '../texts';

/**
 * Logs out and navigates to `to` (default home, spec §4). The session ends once the navigation has
 * left the current page, so a protected page does not greet the leaving user with 请先登录; a user
 * who was logged in is told so (已退出登录).
 */
export function useLogout(): (to?: string) => void {
  const navigate = useNavigate();
  return useCallback(
    (to: string = paths.index) => {
      const hadSession = Boolean(getToken());
      void Promise.resolve(navigate(to, { replace: true })).finally(() => {
        void logout();
        if (hadSession) toast.success(authTexts.loggedOut);
      });
    },
    [navigate],
  );
}
