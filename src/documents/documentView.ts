import type { Kysely } from 'kysely';
import { Type, type Static } from 'typebox';
import { isFinal, isStatus } from '../applications/lifecycle.ts';
import type { Database } from '../store/tables.ts';
import { documentRows, type DocumentRow } from './documentStore.ts';
import {
  DOCUMENT_FIELDS,
  DOCUMENT_TYPES,
  FAILURE_REASONS,
  REQUIRED_DOCUMENT_FIELDS,
  type DocumentField,
  type DocumentType,
} from './outcome.ts';

/**
 * What became of each image field's document, as the caller's status view, the list, the events
 * and the admin view show it: `pending` (not fetched yet, or being tried again), `kept` (its type,
 * size and SHA-256) or `failed` with a reason. Never the URL, never a byte.
 */
/** A kept copy's facts: type, size, SHA-256, pixels, fetch time. */
const CopyFacts = {
  type: Type.Enum([...DOCUMENT_TYPES], { description: 'The type read from the bytes.' }),
  size: Type.Integer({ description: 'Bytes.' }),
  sha256: Type.String({ description: 'Hex SHA-256 of the bytes as served.' }),
  width: Type.Optional(Type.Integer({ description: 'An image: pixels.' })),
  height: Type.Optional(Type.Integer({ description: 'An image: pixels.' })),
  fetched_at: Type.Optional(Type.Integer({ description: 'Unix seconds.' })),
};

export const DocumentOutcome = Type.Object(
  {
    state: Type.Enum(['pending', 'kept', 'failed'], { description: 'What became of the fetch.' }),
    type: Type.Optional(
      Type.Enum([...DOCUMENT_TYPES], { description: 'kept: the type read from the bytes.' }),
    ),
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
          'failed: `unreachable` (tried until DOCUMENT_FETCH_HOURS), `not_a_document` (not a JPEG, PNG, WebP, HEIC/HEIF or PDF), `too_large` (over DOCUMENT_MAX_BYTES), `too_small` (an image under 300 px on its short side), `refused_address` (a private or special-use address, or not https).',
      }),
    ),
    previous: Type.Optional(
      Type.Object(CopyFacts, {
        additionalProperties: false,
        description:
          "The operators' view only, while the field's document (sent again by an amend) is pending or failed: the copy kept of the document it replaces. It stays, as evidence, until a newer one is kept; the admin document route serves it meanwhile.",
      }),
    ),
  },
  { additionalProperties: false },
);
export type DocumentOutcome = Static<typeof DocumentOutcome>;

export const DocumentOutcomes = Type.Object(
  Object.fromEntries(DOCUMENT_FIELDS.map((field) => [field, Type.Optional(DocumentOutcome)])),
  {
    additionalProperties: false,
    description:
      'Per image field the application carries: its document fetched by the service (after the acknowledgement), checked and kept.',
  },
);
export type DocumentOutcomes = Partial<Record<DocumentField, DocumentOutcome>>;

/**
 * The row's outcome. A row's state is about the field's latest document; its copy columns hold the
 * copy the service keeps, which is that document's once kept, or, while the latest is pending or
 * failed, the earlier one's (`previous`, with `withPrevious`: the operators' view).
 */
export function outcomeOf(row: DocumentRow, withPrevious = false): DocumentOutcome {
  const previous =
    withPrevious && row.state !== 'kept' && row.blob_id !== null ? { previous: copyOf(row) } : {};
  if (row.state === 'failed')
    return { state: 'failed', reason: row.reason as DocumentOutcome['reason'], ...previous };
  if (row.state !== 'kept') return { state: 'pending', ...previous };
  return { state: 'kept', ...copyOf(row) };
}

function copyOf(row: DocumentRow): NonNullable<DocumentOutcome['previous']> {
  return {
    type: row.content_type as DocumentType,
    size: Number(row.byte_size),
    sha256: row.sha256 ?? '',
    ...(row.width === null ? {} : { width: row.width, height: Number(row.height) }),
    ...(row.fetched_at === null ? {} : { fetched_at: Math.floor(Number(row.fetched_at) / 1000) }),
  };
}

/**
 * The outcomes of one application, as operators see them (with the `previous` copies held).
 * `present`: the image fields it carries, when known (the operator's view decrypts them);
 * otherwise the required ones, which every application carries, and any the service has started on.
 */
export function outcomesOf(
  rows: readonly DocumentRow[],
  present: readonly string[] = REQUIRED_DOCUMENT_FIELDS,
  withPrevious = true,
): DocumentOutcomes {
  const outcomes: DocumentOutcomes = {};
  for (const field of DOCUMENT_FIELDS) {
    const row = rows.find((r) => r.field === field);
    if (row !== undefined) outcomes[field] = outcomeOf(row, withPrevious);
    else if (present.includes(field)) outcomes[field] = { state: 'pending' };
  }
  return outcomes;
}

/**
 * The outcomes as the caller's status view shows them, for applications given by serial and
 * status (a list page in one query). A final application the service has not started on (or
 * whose documents retention erased) shows none.
 */
export async function callerOutcomes(
  db: Kysely<Database>,
  applications: readonly { busi_water_no: string; status: string }[],
): Promise<Map<string, DocumentOutcomes>> {
  const rows = await documentRows(
    db,
    applications.map((a) => a.busi_water_no),
  );
  return new Map(
    applications.map((a) => [
      a.busi_water_no,
      outcomesOf(
        rows.filter((r) => r.busi_water_no === a.busi_water_no),
        isStatus(a.status) && isFinal(a.status) ? [] : REQUIRED_DOCUMENT_FIELDS,
        false,
      ),
    ]),
  );
}
