import { DOCUMENT_FIELDS, type DocumentField, type FailureReason } from '../events/documentOutcomes.ts';

/**
 * What became of one image field's document, beside the words of an outcome (the fields, types and
 * reasons), which are the events' (events/documentOutcomes.ts): the fields every application
 * carries, and why a fetch failed.
 */

/** The image fields the specification requires (id_card_back_img is optional). */
export const REQUIRED_DOCUMENT_FIELDS: readonly DocumentField[] = [
  'id_card_img',
  'passport_img',
  'sign_applicant',
  'pay_voucher',
];

export function isDocumentField(field: string): field is DocumentField {
  return (DOCUMENT_FIELDS as readonly string[]).includes(field);
}

/**
 * Why a document was not kept. Only `unreachable` is worth another try (the host may come back,
 * the object may not be there yet); the others are what the URL serves. `detail` is for logs and
 * the job's last error: never a byte of the body, never the URL (a signed link is a credential).
 */
export class DocumentFailure extends Error {
  override readonly name = 'DocumentFailure';
  readonly reason: FailureReason;
  readonly detail: string;
  constructor(reason: FailureReason, detail: string) {
    super(`${reason}: ${detail}`);
    this.reason = reason;
    this.detail = detail;
  }
  get retryable(): boolean {
    return this.reason === 'unreachable';
  }
}
