import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { paths } from '../../../config/paths';
import { logout } from '../stores/session-store';

/** Logs out and navigates to `to` (default home, spec §4). */
export function useLogout(): (to?: string) => void {
  const navigate = useNavigate();
  return useCallback(
    (to: string = paths.index) => {
      void logout();
      navigate(to, { replace: true });
    },
    [navigate],
  );
}
