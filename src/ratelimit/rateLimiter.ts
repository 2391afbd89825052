import type { RedisBuckets } from './redisBuckets.ts';
import {
  decide,
  MemoryBuckets,
  type BucketPolicy,
  type RateDecision,
  type TakeResult,
} from './tokenBucket.ts';

export interface WarnLogger {
  warn(object: object, message: string): void;
}

/**
 * The rate limiter of an instance: buckets in Redis when REDIS_URL is set (one limit shared by every
 * instance), else in this process. When Redis does not answer in time, the instance uses its own
 * buckets for that request and logs a warning (at most every 30 s): the limit still holds per
 * instance, so across n instances an app may reach n times its limit while Redis is down, but
 * requests are neither refused nor slowed because of Redis.
 */
export class RateLimiter {
  readonly #shared: RedisBuckets | undefined;
  readonly #local: MemoryBuckets;
  readonly #logger: WarnLogger;
  #warnedAt = 0;

  /**
   * The limiter, with its buckets in Redis when `redisUrl` is set. The Redis client is loaded only
   * then: ioredis holds 2.4 MB of heap in a process that never uses it (docs/PERFORMANCE.md,
   * "Loaded when used").
   */
  static async open(options: {
    redisUrl: string | undefined;
    keyPrefix: string;
    timeoutMs: number;
    logger: WarnLogger;
    now?: () => number;
  }): Promise<RateLimiter> {
    if (options.redisUrl === undefined) return new RateLimiter(undefined, options);
    const { RedisBuckets } = await import('./redisBuckets.ts');
    let limiter: RateLimiter | undefined = undefined;
    const shared = new RedisBuckets(options.redisUrl, {
      keyPrefix: options.keyPrefix,
      timeoutMs: options.timeoutMs,
      onError: (error) => {
        if (limiter !== undefined) limiter.#warn(error);
      },
    });
    limiter = new RateLimiter(shared, options);
    return limiter;
  }

  private constructor(
    shared: RedisBuckets | undefined,
    options: { logger: WarnLogger; now?: (() => number) | undefined },
  ) {
    this.#shared = shared;
    this.#logger = options.logger;
    this.#local = new MemoryBuckets(options.now);
  }

  get shared(): boolean {
    return this.#shared !== undefined;
  }

  /** Waits (up to `ms`) for Redis, so that the first requests already share the limit. */
  async ready(ms = 2000): Promise<void> {
    if (this.#shared !== undefined && !(await this.#shared.ready(ms))) {
      this.#warn(new Error('Redis not reachable at start'));
    }
  }

  /** Takes `cost` tokens from bucket `key`, if it has them. */
  async take(key: string, policy: BucketPolicy, cost = 1): Promise<RateDecision> {
    return decide(await this.#take(key, policy, cost), policy, cost);
  }

  /**
   * `take` without a promise when the buckets are this process's own (no REDIS_URL); undefined
   * when they are shared, and `take` must ask Redis.
   */
  takeLocally(key: string, policy: BucketPolicy, cost = 1): RateDecision | undefined {
    if (this.#shared !== undefined) return undefined;
    return decide(this.#local.takeNow(key, policy, cost), policy, cost);
  }

  /** Whether bucket `key` has a token left, without taking it. */
  async peek(key: string, policy: BucketPolicy): Promise<RateDecision> {
    const { tokens } = await this.#take(key, policy, 0);
    return decide({ allowed: tokens >= 1, tokens }, policy, 1);
  }

  async #take(key: string, policy: BucketPolicy, cost: number): Promise<TakeResult> {
    if (this.#shared !== undefined) {
      try {
        return await this.#shared.take(key, policy, cost);
      } catch (error) {
        this.#warn(error);
      }
    }
    return this.#local.takeNow(key, policy, cost);
  }

  #warn(error: unknown): void {
    const now = Date.now();
    if (now - this.#warnedAt < 30_000) return;
    this.#warnedAt = now;
    const message = error instanceof Error ? error.message : String(error);
    this.#logger.warn(
      { err: { type: 'RedisError', message } },
      'rate limit store unavailable: limiting per instance',
    );
  }

  async close(): Promise<void> {
    await this.#shared?.close();
    await this.#local.close();
  }
}
