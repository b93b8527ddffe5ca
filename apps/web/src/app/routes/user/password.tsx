import { Button } from 'antd';
import { useSession } from '../../../features/auth/stores/session-store';
import { uiActions } from '../../../stores/ui-store';
import { UserPanel } from './user-panel';

export default function UserPasswordPage() {
  const hasPhone = Boolean(useSession((s) => s.userInfo?.phoneNumber));
  return (
    <UserPanel title="修改密码" description="输入原密码与新密码即可修改；修改后其他设备上的登录将失效。">
      {hasPhone ? (
        <p className="muted">密码修改表单即将开放。忘记原密码时，可退出后通过登录页的“忘记密码”重新设置。</p>
      ) : (
        <div className="notice">
          <p>你的账号尚未绑定手机号，暂不能设置密码。绑定手机号后即可使用手机号 + 密码登录。</p>
          <Button type="primary" onClick={() => uiActions.openBindPhoneModal()}>
            绑定手机号
          </Button>
        </div>
      )}
    </UserPanel>
  );
}
