import { createHmac, randomBytes } from 'node:crypto';

/**
 * Standard Webhooks signatures (https://www.standardwebhooks.com): a secret is `whsec_` and the
 * base64 of 32 random bytes; a signature is `v1,` and the base64 HMAC-SHA256, keyed with those
 * bytes, of `${webhook-id}.${webhook-timestamp}.${body}`. While a rotated-out secret still
 * overlaps, the header carries one signature per secret, space-separated, and a receiver accepts
 * the message when any one matches.
 */
const PREFIX = 'whsec_';

export function newWebhookSecret(): string {
  return PREFIX + randomBytes(32).toString('base64');
}

function keyOf(secret: string): Buffer {
  if (!secret.startsWith(PREFIX)) throw new Error('webhook secret: missing whsec_ prefix');
  return Buffer.from(secret.slice(PREFIX.length), 'base64');
}

export function signature(secret: string, id: string, timestampSeconds: number, body: string): string {
  const mac = createHmac('sha256', keyOf(secret)).update(`${id}.${timestampSeconds}.${body}`, 'utf8');
  return `v1,${mac.digest('base64')}`;
}

/** The headers of one attempt: the id is stable across retries (receivers dedupe on it). */
export function signedHeaders(
  secrets: readonly string[],
  id: string,
  timestampSeconds: number,
  body: string,
): { 'webhook-id': string; 'webhook-timestamp': string; 'webhook-signature': string } {
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestampSeconds),
    'webhook-signature': secrets.map((s) => signature(s, id, timestampSeconds, body)).join(' '),
  };
}
