import { readStorage, writeStorage } from '../../../lib/storage';

const KEY = 'kyfwSandboxOpenId';

function randomOpenId(): string {
  const bytes = new Uint8Array(12);
  crypto.getRandomValues(bytes);
  return `sandbox_${Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')}`;
}

/**
 * The fake WeChat user of this browser in sandbox mode: the same openId every time (the same
 * "WeChat account" logs in to the same account), kept in local storage.
 */
export function getSandboxOpenId(): string {
  const stored = readStorage(KEY);
  if (stored && /^[A-Za-z0-9_-]{1,64}$/.test(stored)) return stored;
  const created = randomOpenId();
  writeStorage(KEY, created);
  return created;
}

/** Switches this browser to another fake WeChat user (to try a second account). */
export function renewSandboxOpenId(): string {
  const created = randomOpenId();
  writeStorage(KEY, created);
  return created;
}
