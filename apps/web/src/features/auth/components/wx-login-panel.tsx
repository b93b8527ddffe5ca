import { WechatOutlined } from '@ant-design/icons';
import { authTexts } from '../texts';

export interface WxLoginPanelProps {
  /** True while the WeChat tab is the visible tab of an open dialog/page: poll only then (spec §4). */
  active: boolean;
  /** Fire after a successful login (token stored, user info loaded, 欢迎登录！ shown). */
  onSuccess: () => void;
}

/**
 * WeChat QR login (spec §4). Slot for the accounts issue: request /qrCode, render the QR from the
 * ticket, poll /loginStatus every 3 s while `active`, refresh after 100 polls or on code 1005.
 */
export function WxLoginPanel(_props: WxLoginPanelProps) {
  return (
    <div className="auth-panel auth-panel--wx">
      <div className="qr-frame">
        <WechatOutlined className="qr-frame__icon" />
        <span className="qr-frame__hint">{authTexts.wxPanelPending}</span>
      </div>
      <h4 className="auth-panel__title">{authTexts.wxPanelTitle}</h4>
      <p className="auth-panel__text">{authTexts.wxPanelText}</p>
    </div>
  );
}
