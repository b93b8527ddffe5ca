import { Button } from 'antd';
import { useNavigate } from 'react-router';
import { paths } from '../../../config/paths';
import { authTexts, ChangePasswordForm, passwordTexts, useSession } from '../../../features/auth';
import { uiActions } from '../../../stores/ui-store';
import { UserPanel } from './user-panel';

/** /user/password: only for accounts with a phone (spec §6); others are told how to get there. */
export default function UserPasswordPage() {
  const user = useSession((s) => s.userInfo);
  const navigate = useNavigate();
  let content = <ChangePasswordForm />;
  if (user && !user.phoneNumber) {
    content = (
      <div className="notice">
        <p>{passwordTexts.noPhone}</p>
        <Button type="primary" onClick={() => uiActions.openBindPhoneModal()}>
          {authTexts.bindPhoneTitle}
        </Button>
      </div>
    );
  } else if (user?.hasPassword === false) {
    content = (
      <div className="notice">
        <p>{passwordTexts.noPassword}</p>
        <Button type="primary" onClick={() => navigate(paths['login-forgotPassword'])}>
          {passwordTexts.goForgot}
        </Button>
      </div>
    );
  }
  return (
    <UserPanel title={passwordTexts.title} description={passwordTexts.description}>
      {user ? content : null}
    </UserPanel>
  );
}
