import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { paths } from '../../../config/paths';
import { clearSession } from '../stores/session-store';

/**
 * Ends the local session after the server already ended it (account deleted): go home first, then
 * clear token and user info, so the protected page being left does not warn 请先登录.
 */
export function useEndSession(): () => Promise<void> {
  const navigate = useNavigate();
  return useCallback(async () => {
    await Promise.resolve(navigate(paths.index, { replace: true }));
    clearSession();
  }, [navigate]);
}
