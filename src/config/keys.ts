import { parseEncryptionKeys } from '../crypto/keyRing.ts';
import { ConfigError, integer, optional, type Env } from './variables.ts';

export interface KeyConfig {
  /**
   * The key new values are encrypted with, when not the last of ENCRYPTION_KEYS: a rotation first
   * gives every instance the new key as a non-current one, then makes it current.
   */
  currentKeyId: string | undefined;
  /** Explicit blind-index key (base64, 32 bytes): needed once the first key of the ring retires. */
  indexKey: Buffer | undefined;
  /** Rows re-encrypted per transaction by the background job: short transactions, steady progress. */
  reencryptBatchSize: number;
  /** How often the job looks for rows under older keys when it has nothing to do. */
  reencryptIntervalMs: number;
}

export function keyConfig(env: Env, encryptionKeys: string | undefined): KeyConfig {
  const currentKeyId = optional(env, 'ENCRYPTION_CURRENT_KEY');
  const rawIndexKey = optional(env, 'ENCRYPTION_INDEX_KEY');
  if ((currentKeyId !== undefined || rawIndexKey !== undefined) && encryptionKeys === undefined) {
    throw new ConfigError(
      'ENCRYPTION_CURRENT_KEY, ENCRYPTION_INDEX_KEY: only with ENCRYPTION_KEYS (the key file of DATA_DIR manages itself)',
    );
  }
  if (
    currentKeyId !== undefined &&
    !encryptionKeys!.split(/\s*[,\n]\s*/).some((e) => e.startsWith(`${currentKeyId}:`))
  )
    throw new ConfigError('ENCRYPTION_CURRENT_KEY: must be the id of a key of ENCRYPTION_KEYS');
  let indexKey: Buffer | undefined;
  if (rawIndexKey !== undefined) {
    if (!/^[A-Za-z0-9+/]+={0,2}$/.test(rawIndexKey) || Buffer.from(rawIndexKey, 'base64').length !== 32)
      throw new ConfigError('ENCRYPTION_INDEX_KEY: must be 32 bytes in base64');
    indexKey = Buffer.from(rawIndexKey, 'base64');
  }
  if (encryptionKeys !== undefined) {
    // A malformed key ring is a configuration error like any other: found here, before anything
    // starts, and named without quoting key material.
    try {
      parseEncryptionKeys(encryptionKeys, { currentKeyId, indexKey });
    } catch (error) {
      throw new ConfigError(error instanceof Error ? error.message : 'ENCRYPTION_KEYS: cannot be read');
    }
  }
  return {
    currentKeyId,
    indexKey,
    reencryptBatchSize: integer(env, 'REENCRYPT_BATCH_SIZE'),
    reencryptIntervalMs: integer(env, 'REENCRYPT_INTERVAL_SECONDS') * 1000,
  };
}
