import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { paths } from '../../../config/paths';
import { logout } from '../stores/session-store';

/**
 * Logs out and navigates to `to` (default home, spec §4). The session ends once the navigation has
 * left the current page, so a protected page does not greet the leaving user with 请先登录.
 */
export function useLogout(): (to?: string) => void {
  const navigate = useNavigate();
  return useCallback(
    (to: string = paths.index) => {
      void Promise.resolve(navigate(to, { replace: true })).finally(() => logout());
    },
    [navigate],
  );
}
