import { authTexts } from '../texts';

/** Password reset at /login/forgotPassword (accounts issue): phone, SMS code (type '3'), new password. */
export function ForgotPasswordForm(_props: { onSuccess: () => void }) {
  return <p className="auth-panel__note">{authTexts.forgotPending}</p>;
}
