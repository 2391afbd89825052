import {
  createCipheriv,
  createDecipheriv,
  createHmac,
  createSecretKey,
  hkdfSync,
  type KeyObject,
} from 'node:crypto';
import { pooledRandomBytes } from './randomPool.ts';
import { releaseBuffer } from './releaseBuffer.ts';

/**
 * A versioned key ring for field encryption at rest (AES-256-GCM), and the keyed hash used for
 * equality lookups on encrypted fields.
 *
 * `ENCRYPTION_KEYS` is a comma-separated list of `id:base64` entries, each key 32 bytes; the last
 * entry is the current key, the one new values are encrypted with. Older keys stay in the list so
 * that values written with them can still be read; rotation is adding a key at the end, and
 * re-encrypting old values is optional and can happen later. No error message ever contains key
 * material.
 */

const KEY_ID = /^[A-Za-z0-9_-]{1,32}$/;
const BASE64 = /^(?:[A-Za-z0-9+/]+={0,2}|[A-Za-z0-9_-]+)$/;
export const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const INDEX_KEY_INFO = 'cardapply blind index v1';

export interface KeyRingOptions {
  /**
   * The key for blind indexes (at least 32 bytes). Without it, the index key is derived from the
   * FIRST key of the ring, so adding keys (rotation) never changes it.
   */
  indexKey?: Buffer;
  /** What to call the spec in error messages; `ENCRYPTION_KEYS` by default. */
  source?: string;
  /**
   * The id of the key new values are encrypted with; the last entry when not given. Lets a new key
   * be known to every instance before any of them writes with it (`ENCRYPTION_CURRENT_KEY`).
   */
  currentKeyId?: string | undefined;
}

export class KeyRing {
  /** The id of the key new values are encrypted with (the last one of the spec). */
  readonly currentKeyId: string;
  /** All key ids, in the order of the spec. */
  readonly keyIds: readonly string[];
  /**
   * A fingerprint of the blind-index key (not the key): store it beside the data and compare it at
   * start, so that a changed index key (say, the first key dropped from the ring) is caught before
   * duplicate checks silently stop finding anything.
   */
  readonly indexKeyFingerprint: string;
  readonly #keys: ReadonlyMap<string, KeyObject>;
  readonly #current: KeyObject;
  readonly #indexKey: Buffer;
  /** One derived key per purpose; purposes are a handful of constants in the code. */
  readonly #purposeKeys = new Map<string, KeyObject>();

  constructor(keys: ReadonlyArray<readonly [string, Buffer]>, indexKey: Buffer, currentKeyId?: string) {
    const last = keys[keys.length - 1];
    if (last === undefined) throw new Error('key ring: no keys');
    // Held as KeyObjects: given a Buffer, createCipheriv builds one on every call (2.5x slower).
    this.#keys = new Map(keys.map(([id, key]) => [id, createSecretKey(key)]));
    this.keyIds = keys.map(([id]) => id);
    this.currentKeyId = currentKeyId ?? last[0];
    const current = this.#keys.get(this.currentKeyId);
    if (current === undefined)
      throw new Error(`key ring: current key "${this.currentKeyId}" is not in the ring`);
    this.#current = current;
    this.#indexKey = Buffer.from(indexKey);
    this.indexKeyFingerprint = createHmac('sha256', this.#indexKey)
      .update('fingerprint')
      .digest('base64url')
      .slice(0, 16);
  }

  /**
   * Encrypts `plaintext` with the current key. `aad` binds the value to its place (say
   * `application:<busi_water_no>:cert_id`): the token then decrypts only with the same `aad`, so a
   * value copied to another row or column fails instead of being read as that one.
   * The token is `<keyId>.<base64url(iv || ciphertext || tag)>`, with a random 96-bit IV.
   */
  encrypt(plaintext: string, aad: string): string {
    const iv = pooledRandomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.#current, iv);
    cipher.setAAD(Buffer.from(aad, 'utf8'));
    const body = cipher.update(plaintext, 'utf8');
    const final = cipher.final();
    const tag = cipher.getAuthTag();
    return `${this.currentKeyId}.${Buffer.concat([iv, body, final, tag]).toString('base64url')}`;
  }

  /** Decrypts a token of `encrypt`. Throws for a malformed token, an unknown key id, or a failed check. */
  decrypt(token: string, aad: string): string {
    const keyId = this.keyIdOf(token);
    return this.decryptBytes(keyId, Buffer.from(token.slice(keyId.length + 1), 'base64url'), aad).toString(
      'utf8',
    );
  }

  /**
   * Encrypts bytes with the current key (a document, chunk by chunk): `iv || ciphertext || tag`,
   * and the id of the key, which the caller stores beside it. `aad` binds it to its place as above.
   */
  encryptBytes(plaintext: Uint8Array, aad: string): { keyId: string; sealed: Buffer } {
    const iv = pooledRandomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.#current, iv);
    cipher.setAAD(Buffer.from(aad, 'utf8'));
    const body = cipher.update(plaintext);
    const sealed = Buffer.concat([iv, body, cipher.final(), cipher.getAuthTag()]);
    // The cipher's output is copied into the token: freed now, not left to the collector (bulk bytes).
    releaseBuffer(body);
    return { keyId: this.currentKeyId, sealed };
  }

  /** Decrypts what `encryptBytes` sealed (or a token's bytes) under `keyId`. Throws like `decrypt`. */
  decryptBytes(keyId: string, sealed: Uint8Array, aad: string): Buffer {
    const key = this.#keys.get(keyId);
    if (key === undefined) throw new Error(`decrypt: key "${keyId}" is not in the key ring`);
    if (sealed.length < IV_BYTES + TAG_BYTES) throw new Error('decrypt: token is too short');
    const raw = Buffer.from(sealed.buffer, sealed.byteOffset, sealed.byteLength);
    const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, IV_BYTES), {
      authTagLength: TAG_BYTES,
    });
    decipher.setAAD(Buffer.from(aad, 'utf8'));
    decipher.setAuthTag(raw.subarray(raw.length - TAG_BYTES));
    const body = decipher.update(raw.subarray(IV_BYTES, raw.length - TAG_BYTES));
    try {
      return Buffer.concat([body, decipher.final()]);
    } catch {
      throw new Error(
        `decrypt: authentication failed with key "${keyId}" (wrong key, wrong aad, or altered data)`,
      );
    }
  }

  /** The id of the key a token was encrypted with; to find values that a rotation should re-encrypt. */
  keyIdOf(token: string): string {
    const dot = token.indexOf('.');
    const keyId = dot < 0 ? '' : token.slice(0, dot);
    if (!KEY_ID.test(keyId)) throw new Error('key ring: not an encrypted token');
    return keyId;
  }

  /**
   * A keyed hash of `value` for equality lookups (duplicate identity documents, card numbers):
   * HMAC-SHA256, base64url. Each `purpose` (e.g. `cert_id`, `card_no`) gets its own HKDF-derived
   * key, so the same value gives unrelated hashes for different purposes. The caller normalizes
   * `value` first if equal values can be written differently.
   */
  blindIndex(purpose: string, value: string): string {
    let key = this.#purposeKeys.get(purpose);
    if (key === undefined) {
      const derived = hkdfSync('sha256', this.#indexKey, Buffer.alloc(0), `blind index:${purpose}`, 32);
      key = createSecretKey(Buffer.from(derived));
      this.#purposeKeys.set(purpose, key);
    }
    return createHmac('sha256', key).update(value, 'utf8').digest('base64url');
  }
}

/**
 * Parses an `ENCRYPTION_KEYS` spec into a key ring. Entries may be separated by commas or line
 * breaks, with spaces around them. Errors name the entry (by position and id) and the rule.
 *
 * The blind-index key is `options.indexKey` when given; otherwise HKDF-SHA256 of the FIRST key of
 * the spec. It must never change while data exists, since stored indexes could no longer be
 * matched: keep the first key in the spec forever (rotation only adds keys at the end), or give an
 * explicit index key.
 */
export function parseEncryptionKeys(spec: string, options: KeyRingOptions = {}): KeyRing {
  const source = options.source ?? 'ENCRYPTION_KEYS';
  const keys = parseKeyEntries(spec, source);
  let indexKey: Buffer;
  if (options.indexKey !== undefined) {
    if (options.indexKey.length < KEY_BYTES) {
      throw new Error(`${source}: the blind-index key must be at least ${KEY_BYTES} bytes`);
    }
    indexKey = options.indexKey;
  } else {
    indexKey = deriveIndexKey(keys[0]![1]);
  }
  if (options.currentKeyId !== undefined && !keys.some(([id]) => id === options.currentKeyId)) {
    throw new Error(`${source}: the current key "${options.currentKeyId}" is not among its keys`);
  }
  return new KeyRing(keys, indexKey, options.currentKeyId);
}

function deriveIndexKey(firstKey: Buffer): Buffer {
  return Buffer.from(hkdfSync('sha256', firstKey, Buffer.alloc(0), INDEX_KEY_INFO, KEY_BYTES));
}

/**
 * The blind-index key a spec gives by default (derived from its first key). Kept as an explicit
 * index key when that first key retires, so that the stored hashes still match.
 */
export function defaultIndexKeyOf(spec: string, source = 'ENCRYPTION_KEYS'): Buffer {
  return deriveIndexKey(parseKeyEntries(spec, source)[0]![1]);
}

function parseKeyEntries(spec: string, source: string): [string, Buffer][] {
  const trimmed = spec.trim();
  if (trimmed === '') {
    throw new Error(`${source}: no keys given; expected a comma-separated list of id:base64 entries`);
  }
  // A comma (and any white space around it) or a line break ends an entry; `,,` leaves an empty one.
  const entries = trimmed.split(/\s*(?:,\s*|\n\s*)/);
  const keys: [string, Buffer][] = [];
  const seen = new Set<string>();
  entries.forEach((entry, i) => {
    const where = `${source}: entry ${i + 1}`;
    if (entry === '') throw new Error(`${where} is empty`);
    const colon = entry.indexOf(':');
    if (colon < 0) throw new Error(`${where} is not of the form id:base64`);
    const id = entry.slice(0, colon);
    const material = entry.slice(colon + 1);
    if (!KEY_ID.test(id)) {
      throw new Error(`${where}: key id must be 1 to 32 characters of A-Z, a-z, 0-9, _ and -`);
    }
    if (seen.has(id)) throw new Error(`${where}: key id "${id}" appears more than once`);
    seen.add(id);
    if (!BASE64.test(material)) throw new Error(`${where} (key "${id}"): key is not base64`);
    const key = Buffer.from(
      material,
      material.includes('-') || material.includes('_') ? 'base64url' : 'base64',
    );
    if (key.length !== KEY_BYTES) {
      throw new Error(`${where} (key "${id}"): key must be ${KEY_BYTES} bytes, got ${key.length}`);
    }
    keys.push([id, key]);
  });
  return keys;
}
