import { ErrorCode, MESSAGES } from '@kyfw/contracts';
import { toast } from '../../../stores/ui-store';
import { getBindStatus } from '../api/get-bind-status';
import { getBindingQrCode } from '../api/get-binding-qr-code';
import { useQrPolling } from '../hooks/use-qr-polling';
import { loadUserInfo, setUserInfo } from '../stores/session-store';
import { authTexts } from '../texts';
import type { UserInfo } from '../types';
import { QrBox } from './qr-box';
import '../auth.css';

export interface BindWxPanelProps {
  /** True while the dialog is open: poll only then. */
  active: boolean;
  /** Fire after 绑定成功！ (user info replaced); the dialog closes. */
  onSuccess: () => void;
}

/**
 * Bind-WeChat QR (spec §4): QR from /weixin/wx/getBindingRCode, /getUserInfo {userId} every 3 s
 * until wxOpenId appears (then the user info is replaced, 绑定成功！); a new QR after 100 polls or
 * on 1005. A WeChat bound to another account (2013) shows its message and offers a new QR.
 */
export function BindWxPanel({ active, onSuccess }: BindWxPanelProps) {
  const polling = useQrPolling({
    active,
    fetchQr: getBindingQrCode,
    poll: (qr) => getBindStatus(qr.userId),
    isDone: (data) => Boolean(data?.wxOpenId),
    onDone: (data) => {
      setUserInfo(data as UserInfo);
      toast.success(MESSAGES.BIND_SUCCESS_EXCLAIM);
      onSuccess();
    },
    onPollError: (error) => {
      if (error.code === ErrorCode.WECHAT_BOUND_ELSEWHERE) return 'refresh';
      if (error.code === ErrorCode.ALREADY_HAS_WECHAT) {
        void loadUserInfo();
        return 'stop';
      }
      if (error.code === ErrorCode.UNAUTHORIZED) return 'stop';
      return 'ignore';
    },
  });
  return (
    <div className="auth-panel auth-panel--wx">
      <QrBox {...polling} doneText={authTexts.qrBound}>
        <p className="auth-panel__text">{authTexts.wxBindText}</p>
      </QrBox>
    </div>
  );
}
