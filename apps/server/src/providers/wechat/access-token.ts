/**
 * The Official Account access_token: valid ~7200 s, and every fetch invalidates the previous one
 * (after a 5-minute overlap), so all callers must share one and refresh it rarely. Cached until
 * `expires_in - margin`, refreshed single-flight (concurrent callers await the same request), and
 * dropped when the platform says it is invalid or expired (40001/42001/40014).
 *
 * Per process: in the scaled mode each API process keeps its own token; with several processes
 * the overlap window keeps the previous token working while another process refreshes.
 */
export interface FetchedToken {
  accessToken: string;
  expiresInSeconds: number;
}

export class AccessTokenCache {
  private current: { token: string; refreshAtMs: number } | null = null;
  private inFlight: Promise<string> | null = null;
  private readonly fetchToken: () => Promise<FetchedToken>;
  private readonly now: () => number;
  private readonly marginSeconds: number;

  constructor(
    fetchToken: () => Promise<FetchedToken>,
    options: { now?: () => number; marginSeconds?: number } = {},
  ) {
    this.fetchToken = fetchToken;
    this.now = options.now ?? Date.now;
    this.marginSeconds = options.marginSeconds ?? 300;
  }

  /** A token that is valid for at least the margin; fetches one when needed. */
  async get(): Promise<string> {
    if (this.current && this.now() < this.current.refreshAtMs) return this.current.token;
    this.inFlight ??= this.refresh().finally(() => {
      this.inFlight = null;
    });
    return this.inFlight;
  }

  /** Forgets `token` if it is still the cached one (a concurrent refresh may already have replaced it). */
  invalidate(token: string): void {
    if (this.current?.token === token) this.current = null;
  }

  /** Forgets whatever is cached. */
  clear(): void {
    this.current = null;
  }

  private async refresh(): Promise<string> {
    const { accessToken, expiresInSeconds } = await this.fetchToken();
    // The margin never eats more than half of the lifetime.
    const usable = expiresInSeconds - Math.min(this.marginSeconds, expiresInSeconds / 2);
    this.current = { token: accessToken, refreshAtMs: this.now() + usable * 1000 };
    return accessToken;
  }
}
