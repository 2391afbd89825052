import {
  closeSync,
  fsyncSync,
  linkSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { defaultIndexKeyOf, KEY_BYTES, parseEncryptionKeys, type KeyRing } from '../crypto/keyRing.ts';

/**
 * The embedded store's key files in DATA_DIR: `encryption-keys` (the key spec, one `id:base64` per
 * line, last one current) and `encryption-index-key` (the blind-index key, once the key it derives
 * from has retired). Created, extended and shrunk durably (write, fsync, rename or link, fsync the
 * directory) under a lock file, so that a crash or two rotations at once never lose a key.
 */

/** A fresh `id:base64` entry. */
function newKeyEntry(id: string): string {
  return `${id}:${randomBytes(KEY_BYTES).toString('base64')}`;
}

const KEY_FILE = 'encryption-keys';

function writeFileDurably(path: string, content: string): void {
  const fd = openSync(path, 'wx', 0o600);
  try {
    writeSync(fd, content);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

function syncDir(dir: string): void {
  try {
    const fd = openSync(dir, 'r');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    // Some platforms cannot fsync a directory; the file itself is synced.
  }
}

function tempPath(dataDir: string): string {
  return join(dataDir, `.${KEY_FILE}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
}

/** The entries of a key file (one per line; commas also accepted) as an `ENCRYPTION_KEYS` spec. */
function readKeyFile(path: string): string {
  return readFileSync(path, 'utf8')
    .split(/[,\n]/)
    .map((l) => l.trim())
    .filter((l) => l !== '')
    .join(',');
}

/**
 * The key spec of the embedded store, kept in `<dataDir>/encryption-keys` (one `id:base64` per
 * line, last one current). On first use the file is created with one fresh key `k1`, mode 0600.
 * The file is written in full under a temporary name and then hard-linked into place, which fails
 * if the file exists: two processes starting at once both end up reading the one file that won,
 * and no one ever reads a half-written file.
 *
 * The permissions of an existing file are not checked or changed: it was created 0600 here, and if
 * an operator has changed them, that is their decision (a refusal would stop the service on a
 * mounted volume whose mode the container cannot change).
 */
export function loadOrCreateKeyFile(dataDir: string): string {
  const path = join(dataDir, KEY_FILE);
  try {
    return readKeyFile(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const temp = tempPath(dataDir);
  writeFileDurably(temp, newKeyEntry('k1') + '\n');
  try {
    linkSync(temp, path);
    syncDir(dataDir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  } finally {
    unlinkSync(temp);
  }
  return readKeyFile(path);
}

/** Runs `work` holding the key file's lock: two rotations never both add a key and lose one. */
function withKeyFileLock<T>(dataDir: string, work: (path: string) => T): T {
  const path = join(dataDir, KEY_FILE);
  const lock = join(dataDir, `${KEY_FILE}.lock`);
  let lockFd: number;
  try {
    lockFd = openSync(lock, 'wx', 0o600);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') {
      throw new Error(`key rotation: ${lock} exists; another rotation is running, or remove the stale lock`, {
        cause: err,
      });
    }
    throw err;
  }
  try {
    return work(path);
  } finally {
    closeSync(lockFd);
    unlinkSync(lock);
  }
}

/** Replaces the key file atomically (rename) with `entries`, after checking that they parse. */
function replaceKeyFile(dataDir: string, path: string, entries: string[], indexKey?: Buffer): void {
  // Never write a file that cannot be read.
  parseEncryptionKeys(entries.join(','), { source: path, indexKey });
  const temp = tempPath(dataDir);
  writeFileDurably(temp, entries.join('\n') + '\n');
  renameSync(temp, path);
  syncDir(dataDir);
}

/**
 * Adds a fresh key to `<dataDir>/encryption-keys` and makes it current (for `keys rotate`). Its id
 * is `k<n+1>`, n the highest number among the existing `k<n>` ids. The new file replaces the old
 * one atomically (rename); a lock file keeps two rotations from both adding a key and losing one.
 * Running processes keep their old ring until they load the file again.
 */
export function appendKeyToFile(dataDir: string): { keyId: string; spec: string } {
  return withKeyFileLock(dataDir, (path) => {
    const spec = loadOrCreateKeyFile(dataDir);
    const ring = parseEncryptionKeys(spec, { source: path });
    let highest = 0;
    for (const id of ring.keyIds) {
      const m = /^k([0-9]{1,9})$/.exec(id);
      if (m) highest = Math.max(highest, Number(m[1]));
    }
    const keyId = `k${highest + 1}`;
    const entries = [...spec.split(','), newKeyEntry(keyId)];
    replaceKeyFile(dataDir, path, entries, readIndexKeyFile(dataDir));
    return { keyId, spec: entries.join(',') };
  });
}

const INDEX_KEY_FILE = 'encryption-index-key';

/**
 * The explicit blind-index key of the embedded store, `<dataDir>/encryption-index-key` (base64), or
 * undefined while the index key is still derived from the first key of the key file.
 */
export function readIndexKeyFile(dataDir: string): Buffer | undefined {
  try {
    return Buffer.from(readFileSync(join(dataDir, INDEX_KEY_FILE), 'utf8').trim(), 'base64');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

/**
 * Removes a key from `<dataDir>/encryption-keys` (for `keys retire`), under the rotation lock.
 * `check` runs under the lock with the current spec and throws to refuse (the current key, a key
 * still in use). When the key is the one the blind-index key derives from, that index key is first
 * written to `<dataDir>/encryption-index-key`, so stored hashes keep matching without the key.
 */
export function removeKeyFromFile(
  dataDir: string,
  keyId: string,
  check: (ring: KeyRing) => void,
): { spec: string; indexKeyWritten: boolean } {
  return withKeyFileLock(dataDir, (path) => {
    const spec = loadOrCreateKeyFile(dataDir);
    let indexKey = readIndexKeyFile(dataDir);
    const ring = parseEncryptionKeys(spec, { source: path, indexKey });
    if (!ring.keyIds.includes(keyId)) throw new Error(`key "${keyId}" is not in ${path}`);
    check(ring);
    const entries = spec.split(',').filter((entry) => !entry.startsWith(`${keyId}:`));
    let indexKeyWritten = false;
    if (indexKey === undefined && ring.keyIds[0] === keyId) {
      indexKey = defaultIndexKeyOf(spec, path);
      const temp = tempPath(dataDir);
      writeFileDurably(temp, indexKey.toString('base64') + '\n');
      renameSync(temp, join(dataDir, INDEX_KEY_FILE));
      syncDir(dataDir);
      indexKeyWritten = true;
    }
    replaceKeyFile(dataDir, path, entries, indexKey);
    return { spec: entries.join(','), indexKeyWritten };
  });
}
