import { createHash, randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/**
 * Identifiers, secrets and the hashes they are stored as. App secrets and access tokens are stored
 * only as hashes; operator passwords as scrypt hashes.
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
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

/** True when `secret` hashes to `storedHash`; the comparison takes the same time wherever they differ. */
export function secretMatches(secret: string, storedHash: string): boolean {
  const actual = Buffer.from(hashSecret(secret), 'utf8');
  const expected = Buffer.from(storedHash, 'utf8');
  // The length of a stored hash is no secret; only equal lengths can be compared in constant time.
  if (actual.length !== expected.length) return false;
  return timingSafeEqual(actual, expected);
}

// scrypt with N = 2^15, r = 8, p = 1 (the OWASP recommendation): 32 MiB and ~50-100 ms per hash.
const SCRYPT_N = 2 ** 15;
const SCRYPT_R = 8;
const SCRYPT_P = 1;
const SALT_BYTES = 16;
const HASH_BYTES = 32;
// Bounds on what a stored hash may ask for, so a corrupt or planted row cannot exhaust the server.
const MAX_N = 2 ** 20;
const MAX_R = 32;
const MAX_P = 16;

function scryptAsync(
  password: string,
  salt: Buffer,
  keylen: number,
  options: ScryptOptions,
): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password, salt, keylen, options, (err, key) => (err ? reject(err) : resolve(key)));
  });
}

function scryptOptions(N: number, r: number, p: number): ScryptOptions {
  // Node refuses more than 32 MiB by default; scrypt needs 128 * N * r bytes, plus headroom.
  return { N, r, p, maxmem: 128 * N * r * p + 16 * 1024 * 1024 };
}

/**
 * Normalized so that the same password typed on different keyboards or systems (composed or
 * decomposed accents, full-width forms) hashes alike, as NIST SP 800-63B asks.
 */
function normalize(password: string): string {
  return password.normalize('NFKC');
}

/** The stored form of a password: `scrypt$N$r$p$<salt base64>$<hash base64>`. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const hash = await scryptAsync(
    normalize(password),
    salt,
    HASH_BYTES,
    scryptOptions(SCRYPT_N, SCRYPT_R, SCRYPT_P),
  );
  return ['scrypt', SCRYPT_N, SCRYPT_R, SCRYPT_P, salt.toString('base64'), hash.toString('base64')].join('$');
}

const STORED =
  /^scrypt\$([0-9]{1,8})\$([0-9]{1,3})\$([0-9]{1,3})\$([A-Za-z0-9+/]+={0,2})\$([A-Za-z0-9+/]+={0,2})$/;

/**
 * True when `password` matches a hash made by `hashPassword` (with whatever parameters it records,
 * so the cost can be raised later). Throws when `stored` is not such a hash: that is corrupt data,
 * not a wrong password.
 */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const m = STORED.exec(stored);
  if (m === null) throw new Error('verifyPassword: stored value is not an scrypt hash');
  const N = Number(m[1]);
  const r = Number(m[2]);
  const p = Number(m[3]);
  const salt = Buffer.from(m[4]!, 'base64');
  const expected = Buffer.from(m[5]!, 'base64');
  const powerOfTwo = N >= 2 && (N & (N - 1)) === 0;
  if (!powerOfTwo || N > MAX_N || r < 1 || r > MAX_R || p < 1 || p > MAX_P) {
    throw new Error('verifyPassword: stored scrypt parameters are out of range');
  }
  if (salt.length < 8 || expected.length < 16 || expected.length > 64) {
    throw new Error('verifyPassword: stored scrypt salt or hash has a wrong length');
  }
  const actual = await scryptAsync(normalize(password), salt, expected.length, scryptOptions(N, r, p));
  return timingSafeEqual(actual, expected);
}
