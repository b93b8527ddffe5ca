import { Button } from 'antd';
import { useSession } from '../../../features/auth/stores/session-store';
import { authTexts, maskPhone } from '../../../features/auth/texts';
import { uiActions } from '../../../stores/ui-store';
import { UserPanel } from './user-panel';

export default function UserInfoPage() {
  const user = useSession((s) => s.userInfo);
  return (
    <UserPanel
      title="个人信息"
      description="查看账号与绑定情况，完善个人资料。绑定手机号或微信可获得免费查重、AIGC检测与AI写作体验。"
    >
      <dl className="info-list">
        <div>
          <dt>账号 ID</dt>
          <dd>{user ? String(user.id) : '—'}</dd>
        </div>
        <div>
          <dt>{authTexts.phone}</dt>
          <dd>
            {user?.phoneNumber ? (
              maskPhone(user.phoneNumber)
            ) : (
              <>
                <span className="muted">{authTexts.notBound}</span>
                <Button size="small" type="link" onClick={() => uiActions.openBindPhoneModal()}>
                  {authTexts.bindPhoneTitle}
                </Button>
              </>
            )}
          </dd>
        </div>
        <div>
          <dt>{authTexts.wechat}</dt>
          <dd>
            {user?.wxOpenId ? (
              authTexts.bound
            ) : (
              <>
                <span className="muted">{authTexts.notBound}</span>
                <Button size="small" type="link" onClick={() => uiActions.openBindWxModal()}>
                  {authTexts.bindWxTitle}
                </Button>
              </>
            )}
          </dd>
        </div>
      </dl>
      <p className="muted">姓名、单位、专业、学历等资料的编辑，以及账号注销与数据导出，将在此页面提供。</p>
    </UserPanel>
  );
}
