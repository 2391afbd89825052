/**
 * Token buckets: a bucket holds up to `burst` tokens and refills at `ratePerSecond`; a request takes
 * one (or `cost`) and is refused when there are not enough. Here the arithmetic and the buckets of
 * one process; `redisBuckets.ts` keeps the same buckets in Redis for several instances.
 */
export interface BucketPolicy {
  readonly ratePerSecond: number;
  readonly burst: number;
}

export interface TakeResult {
  readonly allowed: boolean;
  /** Tokens left after this request (fractional). */
  readonly tokens: number;
}

export interface Buckets {
  /** Takes `cost` tokens from the bucket `key` if it has them; `cost` 0 only looks. */
  take(key: string, policy: BucketPolicy, cost: number): Promise<TakeResult>;
  close(): Promise<void>;
}

/** What a decision tells the caller: the RateLimit-* header values and, when refused, Retry-After. */
export interface RateDecision {
  readonly allowed: boolean;
  /** The bucket's size: as many requests as can be made at once. */
  readonly limit: number;
  /** Whole requests that could be made now. */
  readonly remaining: number;
  /** Seconds until the bucket is full again. */
  readonly resetSeconds: number;
  /** Seconds until the refused request would be allowed (at least 1). */
  readonly retryAfterSeconds: number;
}

export function decide(result: TakeResult, policy: BucketPolicy, cost = 1): RateDecision {
  const tokens = Math.max(0, Math.min(policy.burst, result.tokens));
  return {
    allowed: result.allowed,
    limit: policy.burst,
    remaining: Math.floor(tokens),
    resetSeconds: Math.ceil((policy.burst - tokens) / policy.ratePerSecond),
    retryAfterSeconds: Math.max(1, Math.ceil((cost - tokens) / policy.ratePerSecond)),
  };
}

/** The tokens of a bucket `elapsedMs` after it held `tokens`. */
export function refill(tokens: number, elapsedMs: number, policy: BucketPolicy): number {
  return Math.min(policy.burst, tokens + (Math.max(0, elapsedMs) * policy.ratePerSecond) / 1000);
}

/** Beyond this many buckets, full ones (which hold no information) are dropped, once a second. */
const SWEEP_ABOVE = 20_000;
/** Memory stays bounded whatever keys a flood invents: the oldest buckets go first. */
const HARD_CAP = 200_000;

/** The buckets of this process. */
export class MemoryBuckets implements Buckets {
  readonly #buckets = new Map<string, { tokens: number; at: number; policy: BucketPolicy }>();
  readonly #now: () => number;
  #sweptAt = 0;

  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  takeNow(key: string, policy: BucketPolicy, cost: number): TakeResult {
    const now = this.#now();
    const bucket = this.#buckets.get(key);
    let tokens = bucket === undefined ? policy.burst : refill(bucket.tokens, now - bucket.at, policy);
    const allowed = tokens >= cost;
    if (allowed) tokens -= cost;
    if (bucket === undefined) {
      if (this.#buckets.size >= SWEEP_ABOVE && now - this.#sweptAt >= 1000) this.#sweep(now);
      if (this.#buckets.size >= HARD_CAP) this.#buckets.delete(this.#buckets.keys().next().value!);
      this.#buckets.set(key, { tokens, at: now, policy });
    } else {
      bucket.tokens = tokens;
      bucket.at = now;
      bucket.policy = policy;
    }
    return { allowed, tokens };
  }

  async take(key: string, policy: BucketPolicy, cost: number): Promise<TakeResult> {
    return this.takeNow(key, policy, cost);
  }

  get size(): number {
    return this.#buckets.size;
  }

  #sweep(now: number): void {
    this.#sweptAt = now;
    for (const [key, bucket] of this.#buckets) {
      if (refill(bucket.tokens, now - bucket.at, bucket.policy) >= bucket.policy.burst)
        this.#buckets.delete(key);
    }
  }

  async close(): Promise<void> {
    this.#buckets.clear();
  }
}
