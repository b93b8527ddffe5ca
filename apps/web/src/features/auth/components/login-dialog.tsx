import { DIALOG_CLOSE_DELAY_MS } from '@kyfw/contracts';
import { useNavigate } from 'react-router';
import { BrandMark } from '../../../components/layout/brand-mark';
import { BaseModal } from '../../../components/ui/base-modal';
import { paths } from '../../../config/paths';
import { uiActions, useUiStore } from '../../../stores/ui-store';
import { TermsLinks } from '../../legal';
import { authTexts } from '../texts';
import { LoginTabs } from './login-tabs';

/**
 * The login dialog over the app shell (spec §2): two tabs, close button, links to /register and
 * /login/forgotPassword that close the dialog 300 ms after navigating.
 */
export default function LoginDialog() {
  const open = useUiStore((s) => s.loginModal);
  const navigate = useNavigate();
  const follow = (to: string) => {
    navigate(to);
    setTimeout(() => uiActions.closeLoginModal(), DIALOG_CLOSE_DELAY_MS);
  };
  return (
    <BaseModal
      open={open}
      onClose={uiActions.closeLoginModal}
      variant="dialog"
      width={440}
      className="login-dialog"
    >
      <div className="login-dialog__head">
        <BrandMark size={40} />
        <h2>{authTexts.loginDialogTitle}</h2>
        <p>{authTexts.loginDialogSubtitle}</p>
      </div>
      <LoginTabs visible={open} onSuccess={uiActions.closeLoginModal} />
      <div className="login-dialog__links">
        <span>
          {authTexts.noAccount}
          <a
            href={paths.register}
            onClick={(e) => {
              e.preventDefault();
              follow(paths.register);
            }}
          >
            {authTexts.register}
          </a>
        </span>
        <a
          href={paths['login-forgotPassword']}
          onClick={(e) => {
            e.preventDefault();
            follow(paths['login-forgotPassword']);
          }}
        >
          {authTexts.forgotPassword}
        </a>
      </div>
      <p className="login-dialog__agreement">
        {authTexts.agreementPrefix}
        <TermsLinks />
      </p>
    </BaseModal>
  );
}
