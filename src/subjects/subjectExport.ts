import { createHash } from 'node:crypto';
import { Type, type Static } from 'typebox';
import type { ServiceContext } from '../context.ts';
import { EventView, eventView } from '../applications/views/eventView.ts';
import { StatusView, statusView } from '../applications/views/queryApplication.ts';
import { documentRows } from '../documents/documentRepository.ts';
import { readBlob } from '../documents/documentStore.ts';
import { partnerOutcomes } from '../documents/documentView.ts';
import { DOCUMENT_FIELDS, DOCUMENT_TYPES } from '../events/documentOutcomes.ts';
import { findAppEvents, listHistory } from '../events/eventRepository.ts';
import { findApplicationOfApp, payloadsOf } from '../record/applicationRepository.ts';
import { ApplicationRequest } from '../record/schema.ts';
import { openApplication } from '../record/sealedPayload.ts';
import type { SubjectRequestRow } from './subjectRequestRepository.ts';

/**
 * The export that answers an access or portability request (PIPL article 45; docs/PRIVACY.md):
 * everything the service holds about the person for the partner that forwarded the request, over
 * every application the request covers, in one JSON document of a versioned format. Only what the
 * partner sent and what its own API already shows it: the values submitted, the kept documents
 * byte for byte, the status view (history and outcomes) and the events. Never screening, risk or
 * an operator's notes (the AML rule against tipping off, FATF Recommendation 21): those tables are
 * not read here at all. Two submitted values are left out: the payment password's digest (a
 * credential, not information about the person) and the full card number (the masked one is in
 * `status`, as the partner's API shows it; PCI DSS keeps the full one from leaving the issuer).
 */

export const SUBJECT_EXPORT_FORMAT = 'cardapply.subject_export';
export const SUBJECT_EXPORT_VERSION = 1;

/** Submitted values never exported (see above). */
const WITHHELD = ['pay_pwd', 'card_no'] as const;

const Submitted = Type.Partial(Type.Omit(ApplicationRequest, [...WITHHELD]), {
  description:
    'Every value the partner submitted for the application, as the service holds it now (after any amend), decrypted: the submit’s own field names. Never `pay_pwd` (a credential) nor the full `card_no` (`status.card_no_masked` shows it masked). Empty for an application whose identity data retention erased.',
});

const ExportedDocument = Type.Object(
  {
    field: Type.Enum([...DOCUMENT_FIELDS], { description: 'The image field of the submit.' }),
    state: Type.Enum(['pending', 'kept', 'failed'], {
      description:
        '`kept`: the copy the service holds, its bytes below; `pending`: not fetched yet; `failed`: refused or unreachable (`reason`). Only `kept` carries bytes.',
    }),
    reason: Type.Union([Type.String(), Type.Null()], { description: '`failed`: why; null otherwise.' }),
    content_type: Type.Union([Type.Enum([...DOCUMENT_TYPES]), Type.Null()], {
      description: '`kept`: the type read from the bytes.',
    }),
    byte_size: Type.Union([Type.Integer(), Type.Null()], { description: '`kept`: bytes.' }),
    sha256: Type.Union([Type.String(), Type.Null()], {
      description: '`kept`: hex SHA-256 of the bytes, checked as they were exported.',
    }),
    content_base64: Type.Union([Type.String(), Type.Null()], {
      description: '`kept`: the bytes exactly as the partner’s server served them, base64 (RFC 4648).',
    }),
  },
  { additionalProperties: false },
);
export type ExportedDocument = Static<typeof ExportedDocument>;

const ExportedApplication = Type.Object(
  {
    busi_water_no: Type.String({ description: 'The application’s serial number.' }),
    submitted: Submitted,
    status: { ...StatusView, description: 'The status view the query answers: state, history, outcomes.' },
    events: Type.Array(EventView, {
      description: 'The application’s events, oldest first, as the event list and webhooks carry them.',
    }),
    documents: Type.Array(ExportedDocument, {
      description: 'Every image field the application carries, in the order of the submit’s fields.',
    }),
  },
  { additionalProperties: false },
);

/** The export's format, version 1: the OpenAPI document's and docs/PRIVACY.md's. */
export const SubjectExport = Type.Object(
  {
    format: Type.Literal(SUBJECT_EXPORT_FORMAT),
    version: Type.Literal(SUBJECT_EXPORT_VERSION, {
      description: 'The format’s version: a reader refuses one it does not know.',
    }),
    request_id: Type.String({ description: 'The subject request this export answers.' }),
    kind: Type.Enum(['access', 'portability']),
    app_id: Type.String({ description: 'The partner the data is held for.' }),
    generated_at: Type.Integer({ description: 'When it was built (Unix seconds).' }),
    applications: Type.Array(ExportedApplication, {
      description: 'Every application the request covers, oldest first.',
    }),
  },
  {
    additionalProperties: false,
    description:
      'Everything the service holds about the person for this partner (docs/PRIVACY.md): never screening, risk or internal notes.',
  },
);
export type SubjectExport = Static<typeof SubjectExport>;

/** The leading bytes of a JSON object: `{...props` without its closing brace. */
const openObject = (props: Record<string, unknown>) => JSON.stringify(props).slice(0, -1);

/**
 * The export of `request`, as pieces of its JSON text in order (a document's bytes base64 a chunk
 * at a time), so that the caller seals it as it comes. Throws when a kept document's bytes are not
 * those its SHA-256 recorded.
 */
export async function* subjectExportPieces(
  ctx: ServiceContext,
  request: SubjectRequestRow,
): AsyncGenerator<string> {
  const serials = JSON.parse(request.serials) as string[];
  yield openObject({
    format: SUBJECT_EXPORT_FORMAT,
    version: SUBJECT_EXPORT_VERSION,
    request_id: request.request_id,
    kind: request.kind,
    app_id: request.app_id,
    generated_at: Math.floor(ctx.now() / 1000),
  });
  yield ',"applications":[';
  let first = true;
  for (const serial of serials) {
    const row = await findApplicationOfApp(ctx.store.db, request.app_id, serial);
    // Covered when the request was made; nothing to say of one no longer there.
    if (row === undefined) continue;
    if (!first) yield ',';
    first = false;
    yield* applicationPieces(ctx, request.app_id, row);
  }
  yield ']}';
}

async function* applicationPieces(
  ctx: ServiceContext,
  appId: string,
  row: NonNullable<Awaited<ReturnType<typeof findApplicationOfApp>>>,
): AsyncGenerator<string> {
  const serial = row.busi_water_no;
  const [sealed] = await payloadsOf(ctx.store.db, [serial]);
  const stored: Record<string, unknown> =
    sealed === undefined ? {} : { ...openApplication(ctx.keyRing, serial, sealed.payload_enc) };
  for (const field of WITHHELD) delete stored[field];
  const history = await listHistory(ctx.store.db, serial);
  const outcomes =
    (await partnerOutcomes({ db: ctx.store.db, keyRing: ctx.keyRing }, [row])).get(serial) ?? {};
  const status = statusView(row, history, outcomes);
  yield openObject({
    busi_water_no: serial,
    submitted: stored,
    status,
    events: await eventsOf(ctx, appId, serial),
  });
  yield ',"documents":[';
  const rows = await documentRows(ctx.store.db, [serial]);
  let first = true;
  for (const field of DOCUMENT_FIELDS) {
    const outcome = outcomes[field];
    if (outcome === undefined) continue;
    if (!first) yield ',';
    first = false;
    const kept =
      outcome.state === 'kept' ? rows.find((r) => r.field === field && r.state === 'kept') : undefined;
    if (kept === undefined) {
      const listed: ExportedDocument = {
        field,
        state: outcome.state,
        reason: outcome.reason ?? null,
        content_type: null,
        byte_size: null,
        sha256: null,
        content_base64: null,
      };
      yield JSON.stringify(listed);
      continue;
    }
    yield openObject({
      field,
      state: 'kept',
      reason: null,
      content_type: kept.content_type,
      byte_size: Number(kept.byte_size),
      sha256: kept.sha256,
    });
    yield ',"content_base64":"';
    yield* base64Pieces(ctx, { ...kept, busi_water_no: serial });
    yield '"}';
  }
  yield ']}';
}

/** Every event of the application, oldest first, a page at a time. */
async function eventsOf(ctx: ServiceContext, appId: string, serial: string): Promise<EventView[]> {
  const events: EventView[] = [];
  let after: { createdAt: number; eventId: string } | undefined;
  for (;;) {
    const page = await findAppEvents(ctx.store.db, { appId, busiWaterNo: serial, after, limit: 500 });
    events.push(...page.map(eventView));
    const last = page[page.length - 1];
    if (last === undefined || page.length < 500) return events;
    after = { createdAt: last.created_at, eventId: last.event_id };
  }
}

/** A kept copy's bytes in base64, a chunk at a time (three-byte groups carried over), hash checked. */
async function* base64Pieces(
  ctx: ServiceContext,
  row: { busi_water_no: string; blob_id: string | null; chunk_count: number | null; sha256: string | null },
): AsyncGenerator<string> {
  const hash = createHash('sha256');
  let carry = Buffer.alloc(0);
  for await (const bytes of readBlob(ctx, row)) {
    hash.update(bytes);
    const all = carry.length === 0 ? bytes : Buffer.concat([carry, bytes]);
    const whole = all.length - (all.length % 3);
    yield all.subarray(0, whole).toString('base64');
    carry = Buffer.from(all.subarray(whole));
  }
  if (carry.length > 0) yield carry.toString('base64');
  if (hash.digest('hex') !== row.sha256)
    throw new Error('subject export: a kept document does not match its SHA-256');
}
