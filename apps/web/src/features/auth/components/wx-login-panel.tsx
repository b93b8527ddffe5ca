import { LOGIN_STATUS_LOGGED_IN } from '@kyfw/contracts';
import { getLoginQrCode } from '../api/get-qr-code';
import { getLoginStatus } from '../api/login-status';
import { useQrPolling } from '../hooks/use-qr-polling';
import { completeLogin } from '../lib/complete-login';
import { authTexts } from '../texts';
import { QrBox } from './qr-box';
import '../auth.css';

export interface WxLoginPanelProps {
  /** True while the WeChat tab is the visible tab of an open dialog/page: poll only then (spec §4). */
  active: boolean;
  /** Fire after a successful login (token stored, user info loaded, 欢迎登录！ shown). */
  onSuccess: () => void;
}

/**
 * WeChat QR login (spec §4): QR from /qrCode, /loginStatus every 3 s while `active`, a new QR
 * after 100 polls or on 1005 (with its message). On loginStatus '1' the token is stored and, 1 s
 * later, the user info loaded and 欢迎登录！ shown. Sandbox: 模拟扫码.
 */
export function WxLoginPanel({ active, onSuccess }: WxLoginPanelProps) {
  const polling = useQrPolling({
    active,
    fetchQr: getLoginQrCode,
    poll: (qr) => getLoginStatus(qr.userId),
    isDone: (data) => data.loginStatus === LOGIN_STATUS_LOGGED_IN && Boolean(data.userInfo?.token),
    onDone: async (data) => {
      const loggedIn = await completeLogin(data.userInfo?.token ?? '');
      if (loggedIn) onSuccess();
      else polling.refresh();
    },
  });
  return (
    <div className="auth-panel auth-panel--wx">
      <QrBox {...polling} doneText={authTexts.qrScanned}>
        <h4 className="auth-panel__title">{authTexts.wxScanTitle}</h4>
        <p className="auth-panel__text">{authTexts.wxScanText}</p>
      </QrBox>
    </div>
  );
}
