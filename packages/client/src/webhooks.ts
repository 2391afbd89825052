import { createHmac, timingSafeEqual } from 'node:crypto';
import type { WebhookEvent } from './types.ts';

/**
 * Verifies a webhook as Standard Webhooks specifies (https://www.standardwebhooks.com) and returns
 * its event.
 *
 * ⚠️  PASS THE RAW BODY: the exact bytes (or string) the HTTP request carried, before any JSON
 * parsing. A body that was parsed and serialised again (`JSON.stringify(req.body)`) is not the
 * signed bytes (spacing, key order, number and Unicode escapes may differ) and WILL NOT VERIFY:
 * never verify a re-serialised body. In Express use
 * `express.raw({ type: 'application/json' })`; in Fastify a content-type parser with
 * `parseAs: 'buffer'`; with node:http, concatenate the chunks.
 *
 * The signature is `v1,` + base64 HMAC-SHA256 of `${webhook-id}.${webhook-timestamp}.${raw body}`,
 * keyed with the base64-decoded secret after its `whsec_` prefix. The header may carry several
 * signatures (space-separated) while the endpoint's secret is being rotated: any one that matches
 * is enough. You may also pass several secrets (yours, old and new, during a rotation). Signatures
 * are compared in constant time; a timestamp further than `toleranceSeconds` from now is refused,
 * so that a captured request cannot be replayed later. Deliveries are at least once: deduplicate
 * on `webhook-id` (the event's `id`).
 *
 * @throws WebhookVerificationError when the message is not authentic, too old, or malformed.
 */
export function verifyWebhook(
  rawBody: string | Uint8Array,
  headers: WebhookHeaders,
  secret: string | readonly string[],
  options: VerifyOptions = {},
): WebhookEvent {
  const id = header(headers, 'webhook-id');
  const timestamp = header(headers, 'webhook-timestamp');
  const signatures = header(headers, 'webhook-signature');
  if (id === undefined || timestamp === undefined || signatures === undefined) {
    throw new WebhookVerificationError(
      'missing_headers',
      'webhook-id, webhook-timestamp and webhook-signature are required',
    );
  }
  if (!/^\d{1,12}$/.test(timestamp)) {
    throw new WebhookVerificationError('bad_timestamp', 'webhook-timestamp is not Unix seconds');
  }
  const tolerance = options.toleranceSeconds ?? 300;
  const nowSeconds = Math.floor((options.now ?? Date.now)() / 1000);
  const age = nowSeconds - Number(timestamp);
  if (age > tolerance) throw new WebhookVerificationError('too_old', `the message was signed ${age} s ago`);
  if (age < -tolerance) throw new WebhookVerificationError('too_new', 'the message is signed in the future');

  const body = typeof rawBody === 'string' ? Buffer.from(rawBody, 'utf8') : Buffer.from(rawBody);
  const signed = Buffer.concat([Buffer.from(`${id}.${timestamp}.`, 'utf8'), body]);
  const expected = (typeof secret === 'string' ? [secret] : secret).map((s) =>
    createHmac('sha256', secretKey(s)).update(signed).digest(),
  );
  const offered = signatures
    .split(' ')
    .filter((s) => s.startsWith('v1,'))
    .map((s) => Buffer.from(s.slice(3), 'base64'));
  const matches = offered.some((given) =>
    expected.some((wanted) => given.length === wanted.length && timingSafeEqual(given, wanted)),
  );
  if (!matches) {
    throw new WebhookVerificationError(
      'no_matching_signature',
      'no signature matches: check the secret, and that the body is the raw body as received',
    );
  }
  try {
    return JSON.parse(body.toString('utf8')) as WebhookEvent;
  } catch {
    throw new WebhookVerificationError('bad_body', 'the signed body is not JSON');
  }
}

export interface VerifyOptions {
  /** How far the signing time may be from now, in seconds; 300 by default. */
  toleranceSeconds?: number;
  /** The clock, in milliseconds (tests). */
  now?: () => number;
}

/** A `Headers` object, or node's `request.headers` (any letter case). */
export type WebhookHeaders = Headers | Record<string, string | readonly string[] | undefined>;

export type WebhookFailure =
  | 'missing_headers'
  | 'bad_timestamp'
  | 'too_old'
  | 'too_new'
  | 'bad_secret'
  | 'no_matching_signature'
  | 'bad_body';

export class WebhookVerificationError extends Error {
  override readonly name = 'WebhookVerificationError';
  readonly reason: WebhookFailure;

  constructor(reason: WebhookFailure, message: string) {
    super(`webhook not verified: ${message}`);
    this.reason = reason;
  }
}

function header(headers: WebhookHeaders, name: string): string | undefined {
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
  for (const [key, value] of Object.entries(headers as Record<string, string | readonly string[]>)) {
    if (key.toLowerCase() !== name) continue;
    return typeof value === 'string' ? value : value?.join(' ');
  }
  return undefined;
}

function secretKey(secret: string): Buffer {
  const encoded = secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret;
  const key = Buffer.from(encoded, 'base64');
  if (key.length === 0) throw new WebhookVerificationError('bad_secret', 'the secret is empty or not base64');
  return key;
}
