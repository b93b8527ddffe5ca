/**
 * The per-number flow control the real SMS platforms apply to verification codes (Aliyun's default
 * is one per minute per number). The protocol sandboxes enforce it so that callers meet the same
 * refusals offline.
 */
export class SandboxFlowControl {
  private readonly lastSent = new Map<string, number>();
  private readonly intervalMs: number;

  constructor(intervalSeconds: number) {
    this.intervalMs = intervalSeconds * 1000;
  }

  /** True (and counts it) when `phone` may receive a message at `nowMs`. */
  tryTake(phone: string, nowMs: number): boolean {
    if (this.intervalMs <= 0) return true;
    const last = this.lastSent.get(phone);
    if (last !== undefined && nowMs - last < this.intervalMs) return false;
    this.lastSent.set(phone, nowMs);
    if (this.lastSent.size > 10_000) {
      for (const [p, t] of this.lastSent) if (nowMs - t >= this.intervalMs) this.lastSent.delete(p);
    }
    return true;
  }
}

/** Remembers nonces for a window so that a replayed signed request is refused. */
export class NonceWindow {
  private readonly seen = new Map<string, number>();
  private readonly windowMs: number;

  constructor(windowSeconds: number) {
    this.windowMs = windowSeconds * 1000;
  }

  /** False when `nonce` was already used inside the window; otherwise records it. */
  tryUse(nonce: string, nowMs: number): boolean {
    const at = this.seen.get(nonce);
    if (at !== undefined && nowMs - at < this.windowMs) return false;
    this.seen.set(nonce, nowMs);
    if (this.seen.size > 10_000) {
      for (const [n, t] of this.seen) if (nowMs - t >= this.windowMs) this.seen.delete(n);
    }
    return true;
  }
}
