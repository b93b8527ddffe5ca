import { MobileOutlined } from '@ant-design/icons';
import { authTexts } from '../texts';

export interface AccountLoginPanelProps {
  /** Fire after a successful login (token stored, user info loaded, 欢迎登录！ shown). */
  onSuccess: () => void;
}

/**
 * Phone + password login (spec §4/§5). Slot for the accounts issue: the form with phone,
 * password and the terms checkbox, submit disabled until both fields are filled, MD5 password.
 */
export function AccountLoginPanel(_props: AccountLoginPanelProps) {
  return (
    <div className="auth-panel">
      <div className="auth-panel__badge">
        <MobileOutlined />
      </div>
      <h4 className="auth-panel__title">{authTexts.accountPanelTitle}</h4>
      <p className="auth-panel__text">{authTexts.accountPanelText}</p>
      <p className="auth-panel__note">{authTexts.accountPanelPending}</p>
    </div>
  );
}
