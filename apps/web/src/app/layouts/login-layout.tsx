import { Link, Outlet } from 'react-router';
import { BrandMark } from '../../components/layout/brand-mark';
import { paths } from '../../config/paths';
import { TermsLinks } from '../../features/legal';
import { shellTexts } from '../texts';

/** The login layout for /login, /login/forgotPassword and /register: a centred card. */
export function LoginLayout() {
  return (
    <div className="auth-layout">
      <Link to={paths.index} className="brand auth-layout__brand">
        <BrandMark size={40} />
        <span className="brand__text">
          <strong>{shellTexts.siteName}</strong>
          <small>{shellTexts.siteSlogan}</small>
        </span>
      </Link>
      <main className="auth-card">
        <Outlet />
      </main>
      <p className="auth-layout__foot">
        <Link to={paths.index}>{shellTexts.backHome}</Link>
        <span aria-hidden="true"> · </span>
        <TermsLinks separator=" · " />
      </p>
    </div>
  );
}
