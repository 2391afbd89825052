import { randomInt } from 'node:crypto';
import type { WebhookConfig } from '../config.ts';

/**
 * When to try again after the `attempts`-th failed attempt: exponential backoff with full jitter
 * (a uniform wait between 0 and min(max, base * 2^(attempts-1))), so that receivers coming back
 * after an outage are not hit by every worker at the same moment. Retries go on until `giveUpAt`;
 * the last one is made at that time, so a delivery is tried for at least the configured age.
 */
export function retryDelayMs(
  attempts: number,
  config: Pick<WebhookConfig, 'backoffBaseMs' | 'backoffMaxMs'>,
  random: (ceiling: number) => number = (ceiling) => randomInt(ceiling + 1),
): number {
  const exponent = Math.min(Math.max(attempts - 1, 0), 40);
  const ceiling = Math.min(config.backoffMaxMs, config.backoffBaseMs * 2 ** exponent);
  return random(Math.floor(ceiling));
}

export type Verdict =
  { status: 'delivered' } | { status: 'pending'; nextAttemptAt: number } | { status: 'failed' };

/**
 * What comes of an attempt that began at `startedAt` and was answered at `now`. Only an attempt
 * that began at or after the window's end fails the delivery: one that began before it and was
 * answered after it (a slow 503) is followed by one more, due at once, so the last attempt is
 * always made at the window's end or later.
 */
export function verdict(
  outcome: { ok: boolean },
  delivery: { attempt_count: number; give_up_at: number },
  now: number,
  config: Pick<WebhookConfig, 'backoffBaseMs' | 'backoffMaxMs'>,
  startedAt: number = now,
): Verdict {
  if (outcome.ok) return { status: 'delivered' };
  if (startedAt >= delivery.give_up_at) return { status: 'failed' };
  const next = now + retryDelayMs(delivery.attempt_count, config);
  return { status: 'pending', nextAttemptAt: Math.min(next, delivery.give_up_at) };
}
