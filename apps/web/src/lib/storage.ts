/** localStorage/sessionStorage that never throws (private mode, disabled storage, quota). */
function safe(kind: 'localStorage' | 'sessionStorage'): Storage | null {
  try {
    return typeof window === 'undefined' ? null : window[kind];
  } catch {
    return null;
  }
}

export function readStorage(
  key: string,
  kind: 'localStorage' | 'sessionStorage' = 'localStorage',
): string | null {
  try {
    return safe(kind)?.getItem(key) ?? null;
  } catch {
    return null;
  }
}

export function writeStorage(
  key: string,
  value: string,
  kind: 'localStorage' | 'sessionStorage' = 'localStorage',
): void {
  try {
    safe(kind)?.setItem(key, value);
  } catch {
    // storage unavailable: the value simply is not remembered
  }
}
