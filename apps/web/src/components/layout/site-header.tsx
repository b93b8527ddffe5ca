import { Button } from 'antd';
import { lazy, Suspense } from 'react';
import { Link, NavLink } from 'react-router';
import { shellTexts } from '../../app/texts';
import { paths } from '../../config/paths';
import { mainNav } from '../../config/services';
import { useIsLoggedIn } from '../../features/auth';
import { uiActions } from '../../stores/ui-store';
import { BrandMark } from './brand-mark';

// The account menu (Dropdown, Menu, Avatar) is only needed once someone is logged in.
const AccountMenu = lazy(() =>
  // biome-ignore lint/style/noRestrictedImports: a lazy chunk needs the module itself; through the index it would load with the header
  import('../../features/auth/components/account-menu').then((m) => ({ default: m.AccountMenu })),
);

/** Routes whose NavLink must not light up for their children (/reduction vs /reduction/aigc). */
const EXACT: ReadonlySet<string> = new Set([paths.index, paths.reduction]);

export function SiteHeader() {
  const loggedIn = useIsLoggedIn();
  return (
    <header className="site-header">
      <div className="site-header__inner container">
        <Link to={paths.index} className="brand" aria-label={shellTexts.siteName}>
          <BrandMark />
          <span className="brand__text">
            <strong>{shellTexts.siteName}</strong>
            <small>{shellTexts.siteSlogan}</small>
          </span>
        </Link>
        <nav className="main-nav" aria-label="主导航">
          {mainNav.map((item) => (
            <NavLink
              key={item.route}
              to={paths[item.route]}
              end={EXACT.has(paths[item.route])}
              className={({ isActive }) => (isActive ? 'main-nav__link is-active' : 'main-nav__link')}
            >
              {item.name}
            </NavLink>
          ))}
        </nav>
        <div className="site-header__account">
          {loggedIn ? (
            <Suspense fallback={<span className="account-placeholder" />}>
              <AccountMenu />
            </Suspense>
          ) : (
            <Button type="primary" shape="round" onClick={() => uiActions.openLoginModal()}>
              {shellTexts.loginOrRegister}
            </Button>
          )}
        </div>
      </div>
    </header>
  );
}
