// Failed authentications, counted per source address. A source that fails too often is answered
// 429 `auth_rate_limited` for every authentication attempt (valid secrets included, or guessing
// would go on at full speed and only the hits would get through) until its window passes.
export interface AuthRateLimitOptions {
  /** Failures allowed per window and source. Default 20. */
  maxFailures?: number;
  /** Default 60 s. */
  windowMs?: number;
  now?: () => number;
  /** Sources tracked at most (oldest dropped first), so a spray of addresses cannot grow memory. */
  maxSources?: number;
}

export class AuthRateLimiter {
  readonly #max: number;
  readonly #windowMs: number;
  readonly #now: () => number;
  readonly #maxSources: number;
  /** source -> failures in the current window and when that window started. */
  readonly #sources = new Map<string, { failures: number; since: number }>();

  constructor(options: AuthRateLimitOptions = {}) {
    this.#max = options.maxFailures ?? 20;
    this.#windowMs = options.windowMs ?? 60_000;
    this.#now = options.now ?? Date.now;
    this.#maxSources = options.maxSources ?? 100_000;
  }

  /** Milliseconds until `source` may try again; 0 when it is not limited. */
  retryAfterMs(source: string): number {
    const entry = this.#sources.get(source);
    if (!entry) return 0;
    const elapsed = this.#now() - entry.since;
    if (elapsed >= this.#windowMs) {
      this.#sources.delete(source);
      return 0;
    }
    return entry.failures >= this.#max ? this.#windowMs - elapsed : 0;
  }

  recordFailure(source: string): void {
    const now = this.#now();
    const entry = this.#sources.get(source);
    if (entry && now - entry.since < this.#windowMs) {
      entry.failures++;
      return;
    }
    if (entry) this.#sources.delete(source);
    if (this.#sources.size >= this.#maxSources) {
      const oldest = this.#sources.keys().next();
      if (!oldest.done) this.#sources.delete(oldest.value);
    }
    this.#sources.set(source, { failures: 1, since: now });
  }
}

export const RATE_LIMITED = {
  code: 'auth_rate_limited',
  message: (retryAfterMs: number) =>
    `too many failed authentications from this address; try again in ${Math.ceil(retryAfterMs / 1000)} s`,
};
