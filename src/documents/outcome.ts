/**
 * What became of one image field's document: the words shared by the fetcher, the job, the views
 * and the events.
 */

export const DOCUMENT_FIELDS = [
  'id_card_img',
  'id_card_back_img',
  'passport_img',
  'sign_applicant',
  'pay_voucher',
] as const;
export type DocumentField = (typeof DOCUMENT_FIELDS)[number];

/** The image fields the specification requires (id_card_back_img is optional). */
export const REQUIRED_DOCUMENT_FIELDS: readonly DocumentField[] = [
  'id_card_img',
  'passport_img',
  'sign_applicant',
  'pay_voucher',
];

export const FAILURE_REASONS = [
  'unreachable',
  'not_a_document',
  'too_large',
  'too_small',
  'refused_address',
] as const;
export type FailureReason = (typeof FAILURE_REASONS)[number];

export const DOCUMENT_TYPES = [
  'image/jpeg',
  'image/png',
  'image/webp',
  'image/heic',
  'application/pdf',
] as const;
export type DocumentType = (typeof DOCUMENT_TYPES)[number];

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
