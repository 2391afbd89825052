import { ERROR_CODES, type CardApplyError } from './errors.ts';

/** How the client retries: exponential backoff with jitter, and the service's `Retry-After` first. */
export interface RetryPolicy {
  /** Retries after the first attempt. */
  maxRetries: number;
  /** The first backoff; each retry doubles it. */
  baseDelayMs: number;
  /** The longest wait: a backoff is capped at it, and a `Retry-After` beyond it is not waited for. */
  maxDelayMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { maxRetries: 4, baseDelayMs: 250, maxDelayMs: 30_000 };

/**
 * Whether an answer is worth trying again unchanged: rate limited (429), a fault of the service or
 * of a proxy in front of it (5xx), or an earlier attempt with the same Idempotency-Key still in
 * progress (409 `idempotency_in_progress`). Every other error needs a change first.
 */
export function isRetryable(error: CardApplyError): boolean {
  return error.status === 429 || error.status >= 500 || error.code === ERROR_CODES.idempotencyInProgress;
}

/**
 * The wait before retry number `retry` (0 for the first): the service's Retry-After when it sent
 * one, else `baseDelayMs × 2^retry` capped at `maxDelayMs`, less up to half of it at random so that
 * many clients do not retry in step. `undefined`: do not retry (the service asked for longer).
 */
export function retryDelayMs(
  policy: RetryPolicy,
  retry: number,
  retryAfterSeconds: number | undefined,
  random: () => number = Math.random,
): number | undefined {
  if (retryAfterSeconds !== undefined) {
    const asked = retryAfterSeconds * 1000;
    return asked > policy.maxDelayMs ? undefined : asked;
  }
  const backoff = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** retry);
  return Math.round(backoff / 2 + (backoff / 2) * random());
}

/** `Retry-After` in seconds (delta-seconds or an HTTP date), or undefined. */
export function parseRetryAfter(value: string | null, nowMs: number): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  if (/^\s*\d+\s*$/.test(value)) return Number(value);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - nowMs) / 1000));
}
