import { Link, useNavigate } from 'react-router';
import { paths } from '../../config/paths';
import { authTexts, ForgotPasswordForm } from '../../features/auth';

export default function ForgotPasswordPage() {
  const navigate = useNavigate();
  return (
    <>
      <h1 className="auth-card__title">{authTexts.forgotPageTitle}</h1>
      <p className="auth-card__subtitle">{authTexts.forgotPageSubtitle}</p>
      <ForgotPasswordForm onSuccess={() => navigate(paths.login, { replace: true })} />
      <p className="auth-card__switch">
        <Link to={paths.login}>{authTexts.goLogin}</Link>
      </p>
    </>
  );
}
