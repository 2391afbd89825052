import { argon2, randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/**
 * Operator passwords, stored only as memory-hard hashes. New hashes are argon2id (RFC 9106) with
 * Node's own `crypto.argon2` (built in since Node 24.7, stable, no native add-on to install) at
 * the OWASP parameters: 19 MiB, 2 passes, 1 lane. Hashes of an earlier scheme (scrypt, N = 2^15)
 * still verify, and `needsRehash` tells the login to replace them while it holds the password.
 */

const ARGON2_MEMORY_KIB = 19_456;
const ARGON2_PASSES = 2;
const ARGON2_PARALLELISM = 1;
const SALT_BYTES = 16;
const HASH_BYTES = 32;
// Bounds on what a stored hash may ask for, so a corrupt or planted row cannot exhaust the server.
const MAX_ARGON2_MEMORY_KIB = 1_048_576;
const MAX_ARGON2_PASSES = 10;
const MAX_N = 2 ** 20;
const MAX_R = 32;
const MAX_P = 16;

/**
 * Normalized so that the same password typed on different keyboards or systems (composed or
 * decomposed accents, full-width forms) hashes alike, as NIST SP 800-63B asks.
 */
function normalize(password: string): string {
  return password.normalize('NFKC');
}

function argon2id(
  password: string,
  salt: Buffer,
  memory: number,
  passes: number,
  parallelism: number,
  tagLength: number,
) {
  return new Promise<Buffer>((resolve, reject) => {
    argon2(
      'argon2id',
      { message: normalize(password), nonce: salt, memory, passes, parallelism, tagLength },
      (err, key) => (err ? reject(err) : resolve(key)),
    );
  });
}

/** The stored form (PHC string format): `$argon2id$v=19$m=19456,t=2,p=1$<salt>$<hash>`, base64 without padding. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const hash = await argon2id(
    password,
    salt,
    ARGON2_MEMORY_KIB,
    ARGON2_PASSES,
    ARGON2_PARALLELISM,
    HASH_BYTES,
  );
  const b64 = (b: Buffer) => b.toString('base64').replace(/=+$/, '');
  return `$argon2id$v=19$m=${ARGON2_MEMORY_KIB},t=${ARGON2_PASSES},p=${ARGON2_PARALLELISM}$${b64(salt)}$${b64(hash)}`;
}

const ARGON2_STORED =
  /^\$argon2id\$v=19\$m=([0-9]{1,8}),t=([0-9]{1,3}),p=([0-9]{1,3})\$([A-Za-z0-9+/]+)\$([A-Za-z0-9+/]+)$/;
const SCRYPT_STORED =
  /^scrypt\$([0-9]{1,8})\$([0-9]{1,3})\$([0-9]{1,3})\$([A-Za-z0-9+/]+={0,2})\$([A-Za-z0-9+/]+={0,2})$/;

/**
 * True when `password` matches a stored hash of either scheme (with whatever parameters it
 * records, so the cost can be raised later). Throws when `stored` is neither: that is corrupt
 * data, not a wrong password.
 */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const a = ARGON2_STORED.exec(stored);
  if (a !== null) {
    const [memory, passes, parallelism] = [Number(a[1]), Number(a[2]), Number(a[3])];
    const salt = Buffer.from(a[4]!, 'base64');
    const expected = Buffer.from(a[5]!, 'base64');
    if (
      memory < 8 * parallelism ||
      memory > MAX_ARGON2_MEMORY_KIB ||
      passes < 1 ||
      passes > MAX_ARGON2_PASSES
    )
      throw new Error('verifyPassword: stored argon2id parameters are out of range');
    if (
      parallelism < 1 ||
      parallelism > MAX_P ||
      salt.length < 8 ||
      expected.length < 16 ||
      expected.length > 64
    )
      throw new Error('verifyPassword: stored argon2id salt, hash or lanes are out of range');
    const actual = await argon2id(password, salt, memory, passes, parallelism, expected.length);
    return timingSafeEqual(actual, expected);
  }
  return verifyScrypt(password, stored);
}

/** True when the stored hash is not argon2id at today's parameters: the login replaces it. */
export function needsRehash(stored: string): boolean {
  const a = ARGON2_STORED.exec(stored);
  if (a === null) return true;
  return Number(a[1]) < ARGON2_MEMORY_KIB || Number(a[2]) < ARGON2_PASSES;
}

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
 * The earlier scheme, `scrypt$N$r$p$<salt>$<hash>`: only to make the hashes that rows still hold
 * (and the tests of their upgrade); nothing new is stored this way.
 */
export async function hashPasswordScrypt(password: string, N = 2 ** 15): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const hash = await scryptAsync(normalize(password), salt, HASH_BYTES, scryptOptions(N, 8, 1));
  return ['scrypt', N, 8, 1, salt.toString('base64'), hash.toString('base64')].join('$');
}

async function verifyScrypt(password: string, stored: string): Promise<boolean> {
  const m = SCRYPT_STORED.exec(stored);
  if (m === null) throw new Error('verifyPassword: stored value is not an argon2id or scrypt hash');
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
