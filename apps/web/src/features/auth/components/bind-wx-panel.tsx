import { WechatOutlined } from '@ant-design/icons';
import { authTexts } from '../texts';

export interface BindWxPanelProps {
  /** True while the dialog is open: poll only then. */
  active: boolean;
  /** Fire after 绑定成功！ (user info replaced); the dialog closes. */
  onSuccess: () => void;
}

/**
 * Bind-WeChat QR (spec §4). Slot for the accounts issue: QR from /weixin/wx/getBindingRCode,
 * poll /getUserInfo by userId every 3 s until wxOpenId appears; refresh after 100 polls or 1005.
 */
export function BindWxPanel(_props: BindWxPanelProps) {
  return (
    <div className="auth-panel auth-panel--wx">
      <div className="qr-frame">
        <WechatOutlined className="qr-frame__icon" />
        <span className="qr-frame__hint">{authTexts.bindWxPending}</span>
      </div>
    </div>
  );
}
