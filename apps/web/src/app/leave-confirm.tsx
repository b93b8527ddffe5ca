import { useEffect } from 'react';
import { useLocation } from 'react-router';
import { LEAVE_CONFIRM_PATHS } from '../config/paths';
import { useUnsavedInput } from '../stores/unsaved-store';
import { shellTexts } from './texts';

function needsConfirm(pathname: string): boolean {
  const normalized = pathname.replace(/\/+$/, '').toLowerCase();
  return LEAVE_CONFIRM_PATHS.some((p) => p.toLowerCase() === normalized);
}

/** The browser's leave confirmation on the four AI writing pages (spec §2), while they hold unsaved input. */
export function LeaveConfirm() {
  const { pathname } = useLocation();
  const unsaved = useUnsavedInput();
  const active = needsConfirm(pathname) && unsaved;
  useEffect(() => {
    if (!active) return;
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      // Browsers show their own wording; returnValue must still be set for the prompt to appear.
      event.returnValue = shellTexts.leaveConfirm;
      return shellTexts.leaveConfirm;
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, [active]);
  return null;
}
