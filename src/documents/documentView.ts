import type { Kysely } from 'kysely';
import { Type, type Static } from 'typebox';
import { isFinal, isStatus } from '../record/lifecycle.ts';
import type { Database } from '../store/tables.ts';
import { documentRows, type DocumentRow } from './documentRepository.ts';
import type { DocumentOutcomes } from '../events/documentOutcomes.ts';
import {
  DOCUMENT_FIELDS,
  DOCUMENT_TYPES,
  DocumentOutcome,
  OUTCOMES_OPTIONS,
  type DocumentField,
  type DocumentType,
} from '../events/documentOutcomes.ts';
import { REQUIRED_DOCUMENT_FIELDS } from './outcome.ts';
import { payloadsOf } from '../record/applicationRepository.ts';
import { openApplication, type Sealer } from '../record/sealedPayload.ts';

/** A kept copy's facts: type, size, SHA-256, pixels, fetch time. */
const CopyFacts = {
  type: Type.Enum([...DOCUMENT_TYPES], { description: 'The type read from the bytes.' }),
  size: Type.Integer({ description: 'Bytes.' }),
  sha256: Type.String({ description: 'Hex SHA-256 of the bytes as served.' }),
  width: Type.Optional(Type.Integer({ description: 'An image: pixels.' })),
  height: Type.Optional(Type.Integer({ description: 'An image: pixels.' })),
  fetched_at: Type.Optional(Type.Integer({ description: 'Unix seconds.' })),
};

/** The operators' view of an outcome: the partner's, and the copy an amend's document would replace. */
export const OperatorDocumentOutcome = Type.Object(
  {
    ...DocumentOutcome.properties,
    preview: Type.Optional(
      Type.Boolean({
        description:
          'Whether the copy the service holds (the kept one, or the `previous`) has a preview the service drew (a JPEG, PNG or WebP: documents/{field}/preview, shown inline); without one (a PDF, a HEIC, an image kept before previews) the original is a download only.',
      }),
    ),
    previous: Type.Optional(
      Type.Object(CopyFacts, {
        additionalProperties: false,
        description:
          "While the field's document (sent again by an amend) is pending or failed: the copy kept of the document it replaces. It stays, as evidence, until a newer one is kept; the admin document route serves it meanwhile.",
      }),
    ),
  },
  { additionalProperties: false },
);
export type OperatorDocumentOutcome = Static<typeof OperatorDocumentOutcome>;

export const OperatorDocumentOutcomes = Type.Object(
  Object.fromEntries(DOCUMENT_FIELDS.map((field) => [field, Type.Optional(OperatorDocumentOutcome)])),
  OUTCOMES_OPTIONS,
);
export type OperatorDocumentOutcomes = Partial<Record<DocumentField, OperatorDocumentOutcome>>;

/**
 * The row's outcome, as the partner sees it. A row's state is about the field's latest document; its
 * copy columns hold the copy the service keeps, which is that document's once kept, or, while the
 * latest is pending or failed, the earlier one's (which only operators see: `operatorOutcomeOf`).
 */
export function outcomeOf(row: DocumentRow): DocumentOutcome {
  if (row.state === 'failed') return { state: 'failed', reason: row.reason as DocumentOutcome['reason'] };
  if (row.state !== 'kept') return { state: 'pending' };
  return { state: 'kept', ...copyOf(row) };
}

/** The row's outcome as operators see it: with the `previous` copy held while the latest is not kept. */
export function operatorOutcomeOf(row: DocumentRow): OperatorDocumentOutcome {
  const outcome = outcomeOf(row);
  if (row.blob_id === null) return outcome;
  const preview = row.preview_blob_id !== null;
  return row.state !== 'kept' ? { ...outcome, preview, previous: copyOf(row) } : { ...outcome, preview };
}

function copyOf(row: DocumentRow): NonNullable<OperatorDocumentOutcome['previous']> {
  return {
    type: row.content_type as DocumentType,
    size: Number(row.byte_size),
    sha256: row.sha256 ?? '',
    ...(row.width === null ? {} : { width: row.width, height: Number(row.height) }),
    ...(row.fetched_at === null ? {} : { fetched_at: Math.floor(Number(row.fetched_at) / 1000) }),
  };
}

/**
 * Per field, its row's outcome (by `of`), or pending for a field the application carries that the
 * service has not started on. `present`: the image fields it carries, when known (the operator's
 * view decrypts them); otherwise the required ones, which every application carries.
 */
function outcomesBy<T extends DocumentOutcome>(
  rows: readonly DocumentRow[],
  present: readonly string[],
  of: (row: DocumentRow) => T,
): Partial<Record<DocumentField, T | { state: 'pending' }>> {
  const outcomes: Partial<Record<DocumentField, T | { state: 'pending' }>> = {};
  for (const field of DOCUMENT_FIELDS) {
    const row = rows.find((r) => r.field === field);
    if (row !== undefined) outcomes[field] = of(row);
    else if (present.includes(field)) outcomes[field] = { state: 'pending' };
  }
  return outcomes;
}

/** The outcomes of one application, as operators see them (with the `previous` copies held). */
export function outcomesOf(
  rows: readonly DocumentRow[],
  present: readonly string[] = REQUIRED_DOCUMENT_FIELDS,
): OperatorDocumentOutcomes {
  return outcomesBy(rows, present, operatorOutcomeOf);
}

/**
 * The outcomes as the partner's status view shows them, for applications given by serial and
 * status (a list page in one query). A final application the service has not started on (or
 * whose documents retention erased) shows none.
 */
export async function partnerOutcomes(
  store: { db: Kysely<Database>; keyRing: Sealer },
  applications: readonly { busi_water_no: string; status: string }[],
): Promise<Map<string, DocumentOutcomes>> {
  const rows = await documentRows(
    store.db,
    applications.map((a) => a.busi_water_no),
  );
  const open = applications.filter((a) => !(isStatus(a.status) && isFinal(a.status)));
  const carried = await carriedFields(
    store,
    open.map((a) => a.busi_water_no).filter((serial) => !rows.some((r) => r.busi_water_no === serial)),
  );
  return new Map(
    applications.map((a) => [
      a.busi_water_no,
      outcomesBy(
        rows.filter((r) => r.busi_water_no === a.busi_water_no),
        open.includes(a) ? (carried.get(a.busi_water_no) ?? REQUIRED_DOCUMENT_FIELDS) : [],
        outcomeOf,
      ),
    ]),
  );
}

/**
 * The image fields each application carries, read from its payload: for those the service has not
 * started on yet (no document row, between the submit and the relay), whose optional
 * `id_card_back_img` the required fields alone would leave out of the status view.
 */
async function carriedFields(
  store: { db: Kysely<Database>; keyRing: Sealer },
  serials: readonly string[],
): Promise<Map<string, DocumentField[]>> {
  const payloads = await payloadsOf(store.db, serials);
  return new Map(
    payloads.map((row) => {
      const application = openApplication(store.keyRing, row.busi_water_no, row.payload_enc) as Record<
        string,
        unknown
      >;
      const fields = DOCUMENT_FIELDS.filter((field) => {
        const value = application[field];
        return typeof value === 'string' && value !== '';
      });
      return [row.busi_water_no, fields];
    }),
  );
}
