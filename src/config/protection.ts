import { boolean, ConfigError, integer, optional, text, type Env } from './variables.ts';

export interface ProtectionConfig {
  /** How long an idempotency key and its response are kept: partners are promised at least a day. */
  idempotencyTtlSeconds: number;
  /** How long a request waits for a concurrent one with the same key before answering 409. */
  idempotencyWaitMs: number;
  /** After how long an unfinished claim (its holder crashed) may be taken over by a retry. */
  idempotencyLeaseMs: number;
  /** Namespace of this deployment's keys in a Redis that others may share. */
  redisKeyPrefix: string;
  /** How long a rate-limit check waits for Redis before using this instance's own buckets. */
  redisTimeoutMs: number;
  /** Failed app secrets allowed per app_id and per client address: a burst, then so many a minute. */
  authFailureBurst: number;
  authFailuresPerMinute: number;
  /**
   * Whose X-Forwarded-For names the client address (for the failed-secret limit): false (the
   * socket's peer), true (any), or the load balancers' comma-separated addresses or CIDRs.
   */
  trustProxy: boolean | string;
  /** Deepest JSON nesting accepted in a body; a submission needs 3. */
  jsonMaxDepth: number;
}

export function protectionConfig(env: Env): ProtectionConfig {
  const redisKeyPrefix = text(env, 'REDIS_KEY_PREFIX');
  const rawProxy = optional(env, 'TRUST_PROXY');
  let trustProxy: boolean | string = false;
  if (rawProxy !== undefined) {
    if (/^(true|false)$/i.test(rawProxy)) trustProxy = boolean(env, 'TRUST_PROXY');
    else if (/^[0-9a-fA-F.:/]+(\s*,\s*[0-9a-fA-F.:/]+)*$/.test(rawProxy)) trustProxy = rawProxy;
    else throw new ConfigError('TRUST_PROXY: must be true, false or proxy addresses (CIDRs allowed)');
  }
  return {
    idempotencyTtlSeconds: integer(env, 'IDEMPOTENCY_TTL_SECONDS'),
    idempotencyWaitMs: integer(env, 'IDEMPOTENCY_WAIT_MS'),
    idempotencyLeaseMs: integer(env, 'IDEMPOTENCY_LEASE_MS'),
    redisKeyPrefix,
    redisTimeoutMs: integer(env, 'REDIS_TIMEOUT_MS'),
    authFailureBurst: integer(env, 'AUTH_FAILURE_BURST'),
    authFailuresPerMinute: integer(env, 'AUTH_FAILURES_PER_MINUTE'),
    trustProxy,
    jsonMaxDepth: integer(env, 'JSON_MAX_DEPTH'),
  };
}
