import { Link, Navigate, useNavigate } from 'react-router';
import { paths } from '../../config/paths';
import { authTexts, RegisterForm, useIsLoggedIn } from '../../features/auth';
import { FreeBenefits } from '../../features/home';

export default function RegisterPage() {
  const navigate = useNavigate();
  const loggedIn = useIsLoggedIn();
  // Logged in already (or just registered): home.
  if (loggedIn) return <Navigate to={paths.index} replace />;
  return (
    <>
      <h1 className="auth-card__title">{authTexts.registerPageTitle}</h1>
      <p className="auth-card__subtitle">{authTexts.registerPageSubtitle}</p>
      <FreeBenefits />
      <RegisterForm onSuccess={() => navigate(paths.index, { replace: true })} />
      <p className="auth-card__switch">
        {authTexts.haveAccount}
        <Link to={paths.login}>{authTexts.goLogin}</Link>
      </p>
    </>
  );
}
