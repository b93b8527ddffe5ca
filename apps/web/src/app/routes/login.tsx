import { Link, Navigate, useNavigate, useSearchParams } from 'react-router';
import { paths } from '../../config/paths';
import { authTexts, LoginTabs, useIsLoggedIn } from '../../features/auth';

/** Only same-site paths are followed after login (no open redirect). */
function safeRedirect(value: string | null): string {
  return value?.startsWith('/') && !value.startsWith('//') && !value.includes('\\') ? value : paths.index;
}

export default function LoginPage() {
  const navigate = useNavigate();
  const [search] = useSearchParams();
  const target = safeRedirect(search.get('redirect'));
  const loggedIn = useIsLoggedIn();
  const onSuccess = () => navigate(target, { replace: true });
  // Already logged in (e.g. a bookmarked /login): nothing to do here.
  if (loggedIn) return <Navigate to={target} replace />;
  return (
    <>
      <h1 className="auth-card__title">{authTexts.loginPageTitle}</h1>
      <p className="auth-card__subtitle">{authTexts.loginPageSubtitle}</p>
      <LoginTabs visible onSuccess={onSuccess} />
      <div className="login-dialog__links">
        <span>
          {authTexts.noAccount}
          <Link to={paths.register}>{authTexts.register}</Link>
        </span>
        <Link to={paths['login-forgotPassword']}>{authTexts.forgotPassword}</Link>
      </div>
    </>
  );
}
