import { authTexts } from '../texts';

export interface BindPhonePanelProps {
  /** Fire after 绑定成功 (user info reloaded); the dialog closes. */
  onSuccess: () => void;
}

/**
 * Bind-phone form (spec §4/§5). Slot for the accounts issue: phone, SMS code with the 60 s
 * countdown, password, major, education and the agreement; confirm disabled until it is ticked.
 */
export function BindPhonePanel(_props: BindPhonePanelProps) {
  return <p className="auth-panel__note">{authTexts.bindPhonePending}</p>;
}
