import type { KeyRing } from '../crypto/keyRing.ts';
import { isErasedPayload, type ErasedPayload } from './erasure.ts';
import type { ApplicationRequest } from './schema.ts';

/**
 * The application's sealed payload (`payload_enc`): the whole validated request, its card number
 * included, encrypted under the key ring with the serial as associated data (a payload copied to
 * another row does not decrypt). Every read and write of it goes through here, so the stored shape
 * has one definition and no call site casts.
 */

/** What a live application's payload holds. */
export type StoredApplication = ApplicationRequest & { card_no: string };

/** The key ring's two operations this needs (the live ring in a service, a fixed one in tools). */
export type Sealer = Pick<KeyRing, 'encrypt' | 'decrypt'>;

export function sealApplication(keyRing: Sealer, serial: string, application: StoredApplication): string {
  return keyRing.encrypt(JSON.stringify(application), serial);
}

/** The tombstone that replaces an erased application's payload. */
export function sealTombstone(keyRing: Sealer, serial: string, tombstone: ErasedPayload): string {
  return keyRing.encrypt(JSON.stringify(tombstone), serial);
}

/** The stored application, or the tombstone of an erased one. Throws when the key is missing. */
export function openPayload(
  keyRing: Sealer,
  serial: string,
  sealed: string,
): StoredApplication | ErasedPayload {
  // Written only by sealApplication and sealTombstone above: the shape is ours.
  return JSON.parse(keyRing.decrypt(sealed, serial)) as StoredApplication | ErasedPayload;
}

/**
 * The stored application of a live row. An erased one has no applicant left: its fields read as
 * absent (`{}`), which every view already shows as missing.
 */
export function openApplication(keyRing: Sealer, serial: string, sealed: string): Partial<StoredApplication> {
  const payload = openPayload(keyRing, serial, sealed);
  return isErasedPayload(payload) ? {} : payload;
}
