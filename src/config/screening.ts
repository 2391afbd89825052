import { boolean, ConfigError, integer, optional, text, type Env } from './variables.ts';

export interface ScreeningConfig {
  /**
   * The score (0 to 1) at which a listed name is a hit: lower finds more variants and more
   * namesakes. The default was chosen on the labelled set (docs/SCREENING.md).
   */
  threshold: number;
  /**
   * Screening may not be silently off: while true, no list in force (or one past `maxAgeMs`) makes
   * the instance not ready, and no list in force refuses approval (docs/SCREENING.md).
   */
  required: boolean;
  /** How old the newest import of a list may be before the instance is not ready (ms). */
  maxAgeMs: number;
  /**
   * The issuer's own endpoint for screening alerts (a hit on an application already delivered):
   * its compliance systems hear of it at once, signed as Standard Webhooks specifies. Set by the
   * issuer's engineers, so it may be an internal address; unset, the admin feed alone carries them.
   */
  issuerWebhook: { url: string; secret: string } | undefined;
}

function checkIssuerUrl(url: string): void {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ConfigError('ISSUER_WEBHOOK_URL: must be an http:// or https:// URL');
  }
  if (parsed.username !== '' || parsed.password !== '')
    throw new ConfigError('ISSUER_WEBHOOK_URL: must not carry credentials (the signature authenticates)');
}

export function screeningConfig(env: Env): ScreeningConfig {
  const url = optional(env, 'ISSUER_WEBHOOK_URL');
  const secret = optional(env, 'ISSUER_WEBHOOK_SECRET');
  if (url !== undefined && secret === undefined)
    throw new ConfigError('ISSUER_WEBHOOK_SECRET: is required with ISSUER_WEBHOOK_URL');
  if (url === undefined && secret !== undefined)
    throw new ConfigError('ISSUER_WEBHOOK_URL: is required with ISSUER_WEBHOOK_SECRET');
  if (url !== undefined) checkIssuerUrl(url);
  return {
    threshold: Number(text(env, 'SCREENING_THRESHOLD')),
    required: boolean(env, 'SCREENING_REQUIRED'),
    maxAgeMs: integer(env, 'SCREENING_MAX_AGE_DAYS') * 86_400_000,
    issuerWebhook: url === undefined || secret === undefined ? undefined : { url, secret },
  };
}
