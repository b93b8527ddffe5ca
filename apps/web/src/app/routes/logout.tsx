import { useEffect, useRef } from 'react';
import { useLogout } from '../../features/auth';
import { shellTexts } from '../texts';

/** /logout: clears the session (server revocation included) and goes home. */
export default function LogoutPage() {
  const logout = useLogout();
  const done = useRef(false);
  useEffect(() => {
    if (done.current) return;
    done.current = true;
    logout();
  }, [logout]);
  return <div className="page-loading">{shellTexts.loggingOut}</div>;
}
