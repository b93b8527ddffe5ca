import { lazy, Suspense } from 'react';
import { useMountedOnce } from '../../../lib/use-mounted-once';
import { useUiStore } from '../../../stores/ui-store';

const LoginDialog = lazy(() => import('./login-dialog'));
const BindPhoneDialog = lazy(() => import('./bind-phone-dialog'));
const BindWxDialog = lazy(() => import('./bind-wx-dialog'));

/**
 * Mounts the dialogs over the shell. Each loads its code the first time it opens (the landing
 * page does not pay for Tabs/Modal code it may never show) and stays mounted afterwards so that
 * the close animation plays.
 */
export function AuthDialogs() {
  const loginMounted = useMountedOnce(useUiStore((s) => s.loginModal));
  const bindPhoneMounted = useMountedOnce(useUiStore((s) => s.bindPhoneModal));
  const bindWxMounted = useMountedOnce(useUiStore((s) => s.bindWxModal));
  return (
    <Suspense fallback={null}>
      {loginMounted && <LoginDialog />}
      {bindPhoneMounted && <BindPhoneDialog />}
      {bindWxMounted && <BindWxDialog />}
    </Suspense>
  );
}
