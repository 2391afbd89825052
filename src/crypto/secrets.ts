import { hash, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Identifiers, secrets and the hashes they are stored as. App secrets and access tokens are stored
 * only as hashes; operator passwords are hashed in `passwordHash.ts`.
 */

/** A new app id: `app_` and 16 lowercase hex characters (64 random bits). Public, not a secret. */
export function newAppId(): string {
  return 'app_' + randomBytes(8).toString('hex');
}

const PREFIX = /^[a-z]{1,8}$/;

/**
 * A new secret: `<prefix>_` and 256 random bits in base64url (43 characters), e.g. `sk_...` for an
 * app secret, `at_...` for an access token. The prefix tells a leaked secret's kind at a glance and
 * lets secret scanners match it.
 */
export function newSecret(prefix: string): string {
  if (!PREFIX.test(prefix)) throw new Error('newSecret: prefix must be 1 to 8 lowercase letters');
  return `${prefix}_${randomBytes(32).toString('base64url')}`;
}

/**
 * The stored form of a secret or token: SHA-256, hex. A fast hash is right here, unlike for
 * passwords: the input has 256 random bits, so there is nothing to guess from the hash however fast
 * an attacker can compute it, and a fast hash keeps the per-request token check cheap.
 */
export function hashSecret(secret: string): string {
  // One-shot: no Hash object on the per-request token check.
  return hash('sha256', secret, 'hex');
}

/** True when `secret` hashes to `storedHash`; the comparison takes the same time wherever they differ. */
export function secretMatches(secret: string, storedHash: string): boolean {
  const actual = Buffer.from(hashSecret(secret), 'utf8');
  const expected = Buffer.from(storedHash, 'utf8');
  // The length of a stored hash is no secret; only equal lengths can be compared in constant time.
  if (actual.length !== expected.length) return false;
  return timingSafeEqual(actual, expected);
}
