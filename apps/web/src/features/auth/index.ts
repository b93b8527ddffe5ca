/** The auth feature's public API: the session, the login/registration pages and dialogs, 个人中心. */
export { AccountMenu, displayName } from './components/account-menu';
export { getAccountMenuEntries } from './components/account-menu-items';
export { AccountSection, DataSection, EntitlementsSection } from './components/account-sections';
export { AuthDialogs } from './components/auth-dialogs';
export { ChangePasswordForm } from './components/change-password-form';
export { ForgotPasswordForm } from './components/forgot-password-form';
export { LoginTabs } from './components/login-tabs';
export { ProfileForm } from './components/profile-form';
export { RegisterForm } from './components/register-form';
export { useLogout } from './hooks/use-logout';
export { useRequireLogin } from './hooks/use-require-login';
export type { SessionState } from './stores/session-store';
export { isLoggedIn, loadUserInfo, sessionStore, useIsLoggedIn, useSession } from './stores/session-store';
export { authTexts, infoTexts, passwordTexts } from './texts';
