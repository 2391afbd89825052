import type { Keys } from '../../crypto/liveKeyRing.ts';
import { canonicalDocumentNumber } from '../../record/canonical.ts';

/**
 * The keyed hash of an identity document, for the duplicate check (one active application per
 * document): the document type and the canonical document number (`canonicalDocumentNumber`), so
 * that `C668668(9)`, `c668668 (9)` and `C6686689` are one document.
 *
 * Version 1 of this hash was taken over the upper-cased number as sent. Applications stored before
 * version 2 are re-keyed by a background job (`documentRekey.ts`); until it has finished, a
 * submission is also looked up under the version-1 hashes its number may have been stored under.
 */
export function documentHash(
  keyRing: Pick<Keys, 'blindIndex'>,
  certType: string,
  canonicalCertId: string,
): string {
  return keyRing.blindIndex('cert', `${certType}:${canonicalCertId}`);
}

/** The hash an application stored before the canonical reading carries: the number upper-cased. */
export function legacyDocumentHash(
  keyRing: Pick<Keys, 'blindIndex'>,
  certType: string,
  certId: string,
): string {
  return keyRing.blindIndex('cert', `${certType}:${certId.toUpperCase()}`);
}

/**
 * The version-1 hashes the same document may be stored under, other than the canonical one: the
 * number as sent this time, and the number with its check character in brackets (`C668668(9)`),
 * the form Hong Kong and Macao cards are printed in. Empty when they equal the canonical hash.
 */
export function legacyDocumentHashes(
  keyRing: Pick<Keys, 'blindIndex'>,
  application: { cert_type: string; cert_id: string },
): string[] {
  const canonical = canonicalDocumentNumber(application.cert_id);
  const forms = new Set([application.cert_id.toUpperCase()]);
  if (/^[A-Z0-9]{5,}$/.test(canonical)) forms.add(`${canonical.slice(0, -1)}(${canonical.slice(-1)})`);
  forms.delete(canonical);
  return [...forms].map((form) => legacyDocumentHash(keyRing, application.cert_type, form));
}
