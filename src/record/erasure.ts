/**
 * The shape of an erased application (retention): its encrypted payload is replaced by a tombstone
 * and its document hash by a marker. The applications domain owns the shape, so views can tell an
 * erased application from a live one; `retention/` decides when to erase.
 */

/** What replaces the keyed hash of the identity document: matches no document, frees none. */
export const ERASED_CERT_HASH = 'erased';

export interface ErasedPayload {
  erased: true;
  /** Unix seconds. */
  erased_at: number;
}

export function erasedPayload(nowMs: number): ErasedPayload {
  return { erased: true, erased_at: Math.floor(nowMs / 1000) };
}

/** Whether a decrypted payload is the tombstone of an erased application (no applicant in it). */
export function isErasedPayload(payload: unknown): payload is ErasedPayload {
  return typeof payload === 'object' && payload !== null && (payload as { erased?: unknown }).erased === true;
}
