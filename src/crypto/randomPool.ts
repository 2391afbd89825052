import { randomFillSync } from 'node:crypto';

/**
 * Random bytes for the submission path (AES-GCM IVs, event ids), drawn from the CSPRNG 4 KiB at a
 * time: `randomBytes(12)` asks OpenSSL and allocates a buffer on every call, which was 3% of the
 * service's CPU per submission. The bytes are the same CSPRNG's, each handed out once; the pool
 * is per thread (a worker thread or a cluster worker has its own module instance).
 */
const POOL_BYTES = 4096;
const pool = Buffer.allocUnsafeSlow(POOL_BYTES);
let position = POOL_BYTES;

/** `n` (at most 4 KiB) fresh random bytes, as a buffer of their own. */
export function pooledRandomBytes(n: number): Buffer {
  if (!Number.isInteger(n) || n < 0 || n > POOL_BYTES) throw new RangeError(`pooledRandomBytes: ${n}`);
  if (position + n > POOL_BYTES) {
    randomFillSync(pool);
    position = 0;
  }
  const bytes = Buffer.from(pool.subarray(position, position + n));
  // Handed-out bytes are overwritten at once, so that no copy of them stays behind in the pool.
  pool.fill(0, position, position + n);
  position += n;
  return bytes;
}
