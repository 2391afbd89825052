import { Type, type Static } from 'typebox';

/**
 * What the events say of an application's documents (`application.documents_kept`,
 * `application.document_failed`), which is also what the partner's views show: the payload's
 * shape is the outbox's, so it lives here, below documents/, which fills it in. The words of an
 * outcome (the image fields, the types, the reasons of a failure) come with it.
 */

export const DOCUMENT_FIELDS = [
  'id_card_img',
  'id_card_back_img',
  'passport_img',
  'sign_applicant',
  'pay_voucher',
] as const;
export type DocumentField = (typeof DOCUMENT_FIELDS)[number];

export const FAILURE_REASONS = [
  'unreachable',
  'not_a_document',
  'truncated',
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

/**
 * What became of each image field's document, as the partner's status view, the list and the events
 * show it: `pending` (not fetched yet, or being tried again), `kept` (its type, size and SHA-256) or
 * `failed` with a reason. Never the URL, never a byte, and never the copy an amend replaced: that
 * is the operators' (`OperatorDocumentOutcome`).
 */
const outcomeProperties = {
  state: Type.Enum(['pending', 'kept', 'failed'], { description: 'What became of the fetch.' }),
  type: Type.Optional(Type.Enum([...DOCUMENT_TYPES], { description: 'kept: the type read from the bytes.' })),
  size: Type.Optional(Type.Integer({ description: 'kept: bytes.' })),
  sha256: Type.Optional(
    Type.String({ description: 'kept: hex SHA-256 of the bytes as served.', examples: ['9f86d08…'] }),
  ),
  width: Type.Optional(Type.Integer({ description: 'kept image: pixels.' })),
  height: Type.Optional(Type.Integer({ description: 'kept image: pixels.' })),
  fetched_at: Type.Optional(Type.Integer({ description: 'kept: Unix seconds.' })),
  reason: Type.Optional(
    Type.Enum([...FAILURE_REASONS], {
      description:
        'failed: `unreachable` (tried until DOCUMENT_FETCH_HOURS), `not_a_document` (not a JPEG, PNG, WebP, HEIC/HEIF or PDF, or one whose structure is broken or padded past its end), `truncated` (the file ends before its format end: no IEND, EOI, RIFF end, last box, or startxref and %%EOF), `too_large` (over DOCUMENT_MAX_BYTES, or an image over DOCUMENT_MAX_PIXELS by its header), `too_small` (an image under 300 px on its short side), `refused_address` (a private or special-use address, or not https).',
    }),
  ),
};

export const DocumentOutcome = Type.Object(outcomeProperties, { additionalProperties: false });
export type DocumentOutcome = Static<typeof DocumentOutcome>;

/** The map of a field's outcomes: the payload's `documents` (and the views' alike). */
export const OUTCOMES_OPTIONS = {
  additionalProperties: false,
  description:
    'Per image field the application carries: its document fetched by the service (after the acknowledgement), checked and kept.',
} as const;

export const DocumentOutcomes = Type.Object(
  Object.fromEntries(DOCUMENT_FIELDS.map((field) => [field, Type.Optional(DocumentOutcome)])),
  OUTCOMES_OPTIONS,
);
export type DocumentOutcomes = Partial<Record<DocumentField, DocumentOutcome>>;
