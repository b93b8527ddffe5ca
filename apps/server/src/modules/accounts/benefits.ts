import type { EntitlementKind } from '@kyfw/db';

/**
 * What every account gets (spec §1: a free similarity check, a free AIGC detection, an AI-writing
 * trial and one-to-one online service), in one place. Every page reads this list from the server
 * (/home/homeInfo `benefits`, the user info's `entitlements`), so a page never promises a benefit
 * whose service does not exist: `open: false` is shown as 即将开放 and its entitlement cannot be used.
 *
 * When a service lands, set its benefit's `open` to true here — nothing else changes: the pages
 * show it as 可使用, and the service uses the entitlement (`consumeEntitlement`).
 */
export interface Benefit {
  kind: 'free_check' | 'free_aigc_detection' | 'ai_writing_trial' | 'online_support';
  /** The entitlement the account holds for it (used once), or null for a standing service. */
  entitlement: EntitlementKind | null;
  /** Its service exists and honours the entitlement. */
  open: boolean;
}

export const BENEFITS: readonly Benefit[] = [
  { kind: 'free_check', entitlement: 'free_check', open: true },
  // AIGC detection (issue 14): the check module's aigc goods use it.
  { kind: 'free_aigc_detection', entitlement: 'free_aigc_detection', open: true },
  // AI thesis writing (issue 13): the writing module's free outline uses it.
  { kind: 'ai_writing_trial', entitlement: 'ai_writing_trial', open: true },
  // No online service desk exists yet.
  { kind: 'online_support', entitlement: null, open: false },
];

/** Whether the service of an entitlement exists (an entitlement of a closed service cannot be used). */
export function isEntitlementOpen(kind: EntitlementKind): boolean {
  return BENEFITS.some((b) => b.entitlement === kind && b.open);
}

/** Wire form: what registration gives, for the pages that promise it (/register, /, /check…). */
export function toBenefitsView() {
  return BENEFITS.map((b) => ({ kind: b.kind, available: b.open }));
}
