import { Redis } from 'ioredis';
import type { BucketPolicy, Buckets, TakeResult } from './tokenBucket.ts';

/**
 * Token buckets kept in Redis, shared by every instance. One Lua script reads, refills, takes and
 * writes a bucket atomically, on the Redis server's clock (so instances with skewed clocks agree).
 * A bucket expires once it would be full again: idle apps cost no memory.
 */
const TAKE_SCRIPT = `
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local rate = tonumber(ARGV[1])
local burst = tonumber(ARGV[2])
local cost = tonumber(ARGV[3])
local state = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens = tonumber(state[1])
local at = tonumber(state[2])
if tokens == nil or at == nil then
  tokens = burst
  at = now
end
tokens = math.min(burst, tokens + math.max(0, now - at) * rate / 1000)
local allowed = 0
if tokens >= cost then
  tokens = tokens - cost
  allowed = 1
end
if cost > 0 then
  redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'at', tostring(now))
  redis.call('PEXPIRE', KEYS[1], math.ceil((burst - tokens) * 1000 / rate) + 1000)
end
return {allowed, tostring(tokens)}
`;

declare module 'ioredis' {
  interface RedisCommander {
    takeToken(key: string, rate: number, burst: number, cost: number): Promise<[number, string]>;
  }
}

export class RedisBuckets implements Buckets {
  readonly redis: Redis;
  readonly #prefix: string;

  /**
   * Commands fail fast instead of queueing while Redis is unreachable (no offline queue, one
   * attempt, a time-out), so that the caller can fall back at once; the client keeps reconnecting.
   */
  constructor(
    url: string,
    options: { keyPrefix: string; timeoutMs: number; onError: (error: Error) => void },
  ) {
    this.#prefix = options.keyPrefix;
    this.redis = new Redis(url, {
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      commandTimeout: options.timeoutMs,
      connectTimeout: Math.max(1000, options.timeoutMs),
      retryStrategy: (attempt) => Math.min(attempt * 200, 2000),
    });
    this.redis.on('error', options.onError);
    this.redis.defineCommand('takeToken', { numberOfKeys: 1, lua: TAKE_SCRIPT });
  }

  /** Resolves when connected, or after `ms` (the service starts either way). */
  async ready(ms: number): Promise<boolean> {
    if (this.redis.status === 'ready') return true;
    return new Promise((resolve) => {
      const done = (value: boolean) => {
        clearTimeout(timer);
        this.redis.off('ready', onReady);
        resolve(value);
      };
      const onReady = () => done(true);
      const timer = setTimeout(() => done(false), ms);
      this.redis.once('ready', onReady);
    });
  }

  async take(key: string, policy: BucketPolicy, cost: number): Promise<TakeResult> {
    const [allowed, tokens] = await this.redis.takeToken(
      `${this.#prefix}ratelimit:${key}`,
      policy.ratePerSecond,
      policy.burst,
      cost,
    );
    return { allowed: allowed === 1, tokens: Number(tokens) };
  }

  async close(): Promise<void> {
    this.redis.disconnect();
  }
}
