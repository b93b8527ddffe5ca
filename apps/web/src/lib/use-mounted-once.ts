import { useState } from 'react';

/** True from the first render where `flag` was true, for good. */
export function useMountedOnce(flag: boolean): boolean {
  const [mounted, setMounted] = useState(flag);
  if (flag && !mounted) setMounted(true);
  return mounted || flag;
}
