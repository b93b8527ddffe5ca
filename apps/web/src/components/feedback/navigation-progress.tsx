import NProgress from 'nprogress';
import 'nprogress/nprogress.css';
import { useEffect } from 'react';
import { useNavigation } from 'react-router';

NProgress.configure({ showSpinner: false, trickleSpeed: 150, minimum: 0.15 });

/** The top progress bar (spec §2): runs while a navigation is pending (lazy chunks, loaders). */
export function NavigationProgress() {
  const navigation = useNavigation();
  const busy = navigation.state !== 'idle';
  useEffect(() => {
    if (!busy) return;
    // A short grace period keeps the bar from flashing on instant navigations.
    const timer = setTimeout(() => NProgress.start(), 120);
    return () => {
      clearTimeout(timer);
      NProgress.done();
    };
  }, [busy]);
  return null;
}
