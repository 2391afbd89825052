import { statSync } from 'node:fs';
import { join } from 'node:path';
import type { KeyRing } from './keyRing.ts';

/** What the domain uses of a key ring: a fixed `KeyRing` and a `LiveKeyRing` both provide it. */
export type Keys = Pick<
  KeyRing,
  | 'currentKeyId'
  | 'keyIds'
  | 'indexKeyFingerprint'
  | 'encrypt'
  | 'decrypt'
  | 'encryptBytes'
  | 'decryptBytes'
  | 'keyIdOf'
  | 'blindIndex'
>;

export interface LiveKeyRingOptions {
  /** Reads the ring again (the key file as it is now). */
  load: () => KeyRing;
  /** The file whose change means new keys, watched by `refreshIfChanged`. */
  file: string;
  /** Told when a reload fails or is refused; the ring in use stays. */
  onReloadError?: (error: Error) => void;
  onReload?: (ring: KeyRing) => void;
}

/** At most one reload for unknown key ids per this many milliseconds: garbage cannot cause a storm. */
const RELOAD_THROTTLE_MS = 1000;

/**
 * The key ring of the embedded store, which lives in `<dataDir>/encryption-keys` and can change
 * under a running service (`cardapply keys rotate`, `keys retire`). It reloads the file when it
 * meets a token of a key it does not know (another process wrote with a newer key) and when
 * `refreshIfChanged` sees the file's size or time change (the service calls it every few seconds,
 * so that it also starts encrypting with a new current key). A reload that would change the
 * blind-index key is refused: stored hashes would stop matching.
 */
export class LiveKeyRing implements Keys {
  #ring: KeyRing;
  #stamp: string;
  #lastUnknownReload = 0;
  readonly #options: LiveKeyRingOptions;

  constructor(options: LiveKeyRingOptions) {
    this.#options = options;
    this.#stamp = stampOf(options.file);
    this.#ring = options.load();
  }

  static forDataDir(
    dataDir: string,
    load: () => KeyRing,
    hooks: Pick<LiveKeyRingOptions, 'onReload' | 'onReloadError'> = {},
  ): LiveKeyRing {
    return new LiveKeyRing({ load, file: join(dataDir, 'encryption-keys'), ...hooks });
  }

  get currentKeyId(): string {
    return this.#ring.currentKeyId;
  }
  get keyIds(): readonly string[] {
    return this.#ring.keyIds;
  }
  get indexKeyFingerprint(): string {
    return this.#ring.indexKeyFingerprint;
  }

  encrypt(plaintext: string, aad: string): string {
    return this.#ring.encrypt(plaintext, aad);
  }

  decrypt(token: string, aad: string): string {
    const keyId = this.#ring.keyIdOf(token);
    if (!this.#ring.keyIds.includes(keyId) && Date.now() - this.#lastUnknownReload >= RELOAD_THROTTLE_MS) {
      this.#lastUnknownReload = Date.now();
      this.reload();
    }
    return this.#ring.decrypt(token, aad);
  }

  encryptBytes(plaintext: Uint8Array, aad: string): { keyId: string; sealed: Buffer } {
    return this.#ring.encryptBytes(plaintext, aad);
  }

  decryptBytes(keyId: string, sealed: Uint8Array, aad: string): Buffer {
    if (!this.#ring.keyIds.includes(keyId) && Date.now() - this.#lastUnknownReload >= RELOAD_THROTTLE_MS) {
      this.#lastUnknownReload = Date.now();
      this.reload();
    }
    return this.#ring.decryptBytes(keyId, sealed, aad);
  }

  keyIdOf(token: string): string {
    return this.#ring.keyIdOf(token);
  }

  blindIndex(purpose: string, value: string): string {
    return this.#ring.blindIndex(purpose, value);
  }

  /** Reloads when the key file has changed since the last load; true when the ring changed. */
  refreshIfChanged(): boolean {
    if (stampOf(this.#options.file) === this.#stamp) return false;
    return this.reload();
  }

  /** Reads the key file again; true when the new ring is in use. */
  reload(): boolean {
    const stamp = stampOf(this.#options.file);
    let next: KeyRing;
    try {
      next = this.#options.load();
    } catch (error) {
      this.#options.onReloadError?.(error as Error);
      return false;
    }
    this.#stamp = stamp;
    if (next.indexKeyFingerprint !== this.#ring.indexKeyFingerprint) {
      this.#options.onReloadError?.(
        new Error(
          'key file reload refused: it would change the blind-index key (keep the first key or its index key)',
        ),
      );
      return false;
    }
    const changed =
      next.currentKeyId !== this.#ring.currentKeyId || next.keyIds.join(',') !== this.#ring.keyIds.join(',');
    this.#ring = next;
    if (changed) this.#options.onReload?.(next);
    return changed;
  }
}

/** Size, change time and inode: a rename into place changes at least one. */
function stampOf(file: string): string {
  try {
    const s = statSync(file, { bigint: true });
    return `${s.ino}:${s.size}:${s.mtimeNs}:${s.ctimeNs}`;
  } catch {
    return 'missing';
  }
}
