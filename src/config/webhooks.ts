import { boolean, ConfigError, integer, type Env } from './variables.ts';

export interface WebhookConfig {
  /** Run the dispatcher inside the service process; off when `cardapply worker` processes do it. */
  inProcess: boolean;
  /** Attempts in flight at once per worker. */
  concurrency: number;
  /** How often an idle worker looks for due deliveries and new events. */
  pollIntervalMs: number;
  /** Time-out of one attempt (DNS, connect, response headers): a slow receiver cannot hold a slot. */
  timeoutMs: number;
  /** How long a claimed delivery stays another worker's; a killed worker's work is retried after it. */
  leaseMs: number;
  /** Exponential backoff with full jitter: the n-th retry waits up to min(max, base * 2^(n-1)). */
  backoffBaseMs: number;
  backoffMaxMs: number;
  /** How long a delivery is retried before it is marked failed (at least a day in production). */
  maxAgeSeconds: number;
  /** Allows http and private, loopback and link-local receivers: for tests and closed networks only. */
  allowPrivate: boolean;
}

export function webhookConfig(env: Env): WebhookConfig {
  const timeoutMs = integer(env, 'WEBHOOK_TIMEOUT_MS');
  const leaseMs = integer(env, 'WEBHOOK_LEASE_MS');
  // A lease shorter than an attempt would let a second worker start the same delivery.
  if (leaseMs < 2 * timeoutMs)
    throw new ConfigError('WEBHOOK_LEASE_MS: must be at least twice WEBHOOK_TIMEOUT_MS');
  const backoffBaseMs = integer(env, 'WEBHOOK_BACKOFF_BASE_MS');
  const backoffMaxMs = integer(env, 'WEBHOOK_BACKOFF_MAX_MS');
  if (backoffMaxMs < backoffBaseMs)
    throw new ConfigError('WEBHOOK_BACKOFF_MAX_MS: must not be less than WEBHOOK_BACKOFF_BASE_MS');
  return {
    inProcess: boolean(env, 'WEBHOOK_WORKER'),
    concurrency: integer(env, 'WEBHOOK_CONCURRENCY'),
    pollIntervalMs: integer(env, 'WEBHOOK_POLL_INTERVAL_MS'),
    timeoutMs,
    leaseMs,
    backoffBaseMs,
    backoffMaxMs,
    maxAgeSeconds: integer(env, 'WEBHOOK_MAX_AGE_SECONDS'),
    allowPrivate: boolean(env, 'WEBHOOK_ALLOW_PRIVATE'),
  };
}
