import { join } from 'node:path';
import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import { parseEncryptionKeys } from '../crypto/keyRing.ts';
import { loadOrCreateKeyFile, readIndexKeyFile } from './keyFile.ts';
import { LiveKeyRing, type Keys } from '../crypto/liveKeyRing.ts';

/**
 * The key ring from configuration. With ENCRYPTION_KEYS it is fixed for the life of the process (a
 * rotation is a redeploy, see docs/DEPLOYMENT.md). Without it (the embedded store) it is the key
 * file of DATA_DIR, generated on first start, which `cardapply keys rotate` and `keys retire`
 * change under a running service: the ring follows the file.
 */
export function loadKeyRing(config: Config, logger: Pick<Logger, 'info' | 'error'>): Keys {
  if (config.encryptionKeys !== undefined) {
    return parseEncryptionKeys(config.encryptionKeys, {
      indexKey: config.keys.indexKey,
      currentKeyId: config.keys.currentKeyId,
    });
  }
  const dataDir = config.dataDir;
  return LiveKeyRing.forDataDir(dataDir, () => loadKeyFileRing(dataDir), {
    onReload: (ring) =>
      logger.info({ key_ids: ring.keyIds, current_key_id: ring.currentKeyId }, 'encryption keys reloaded'),
    onReloadError: (error) =>
      logger.error({ err: { message: error.message } }, 'encryption keys not reloaded'),
  });
}

/** The embedded store's ring as its files say now. */
export function loadKeyFileRing(dataDir: string) {
  return parseEncryptionKeys(loadOrCreateKeyFile(dataDir), {
    source: join(dataDir, 'encryption-keys'),
    indexKey: readIndexKeyFile(dataDir),
  });
}
