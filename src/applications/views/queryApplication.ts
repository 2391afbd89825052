import { unixSeconds } from '../../record/dates.ts';
import type { Partner } from '../../partners/credentials.ts';
import type { ServiceContext } from '../../context.ts';
import { ServiceError } from '../../errors/serviceError.ts';
import { Type, type Static } from 'typebox';
import { partnerOutcomes } from '../../documents/documentView.ts';
import { DocumentOutcomes } from '../../events/documentOutcomes.ts';
import { listHistory, type HistoryRow } from '../../events/eventRepository.ts';
import { findApplicationOfApp } from '../../record/applicationRepository.ts';
import { STATUSES, storedStatus } from '../../record/lifecycle.ts';
import { partnerReasonCodes, reasonCodesOf } from '../rules/reasonCodes.ts';
import { fieldListOf } from '../rules/requestedFields.ts';
import { SerialNumber } from '../../record/schema.ts';
import { isSerialNumber } from '../../record/serialNumber.ts';

/**
 * The status view a partner sees of one of its applications: its state, its history, the outcome of
 * its documents, and what was asked of it; never screening, risk or internal notes.
 */

/** Codes of the `reason` table (see the codes endpoint), for a partner's own screens and statistics. */
const ReasonCodes = (description: string) =>
  Type.Array(Type.String({ minLength: 1, maxLength: 32 }), {
    description,
    examples: [['document_unreadable']],
  });

const Shipment = Type.Object(
  {
    carrier: Type.String(),
    tracking_no: Type.String(),
    tracking_url: Type.Optional(Type.String({ description: 'A link to follow the shipment.' })),
  },
  {
    description: 'Only for SHIPPED: the carrier, the tracking number and, if given, a tracking link.',
  },
);
export type Shipment = Static<typeof Shipment>;

/**
 * The status view a partner sees: where the application stands and how it got there. Never
 * identity numbers, phones, e-mails, images or the payment password. Shared by query, list,
 * cancel, amend and simulate; the response schema, the document and the type all come from here.
 */
export const StatusView = Type.Object({
  busi_water_no: SerialNumber,
  external_id: Type.Union([Type.String(), Type.Null()], {
    description: "The partner's own reference given at the submit, or null.",
  }),
  status: Type.Enum([...STATUSES], {
    description: 'Current state of the lifecycle.',
    examples: ['SUBMITTED'],
  }),
  status_reason: Type.Union([Type.String(), Type.Null()], {
    description: 'Reason of the last change, if any.',
  }),
  reason_codes: ReasonCodes('Codes of the `reason` table given with the last change; empty when none.'),
  requested_fields: Type.Array(Type.String(), {
    description:
      'While SUPPLEMENT_REQUIRED: the fields of the submit to send again with the amend; empty otherwise.',
    examples: [['id_card_img']],
  }),
  card_no_masked: Type.String({
    description: 'First 6 and last 4 digits; the rest `*`.',
    examples: ['539966******1234'],
  }),
  created_at: Type.Integer({ description: 'Unix seconds.' }),
  updated_at: Type.Integer({ description: 'Unix seconds.' }),
  history: Type.Array(
    Type.Object({
      status: Type.String(),
      at: Type.Integer({ description: 'Unix seconds.' }),
      reason: Type.Union([Type.String(), Type.Null()]),
      reason_codes: ReasonCodes('Codes of the `reason` table given with this change.'),
      requested_fields: Type.Optional(
        Type.Array(Type.String(), { description: 'SUPPLEMENT_REQUIRED: the fields asked for.' }),
      ),
      amended_fields: Type.Optional(
        Type.Array(Type.String(), { description: 'An amendment: the fields sent again.' }),
      ),
      changed_fields: Type.Optional(
        Type.Array(Type.String(), { description: 'An amendment: the fields whose value changed.' }),
      ),
      details: Type.Optional(Shipment),
    }),
  ),
  documents: DocumentOutcomes,
});
export type StatusView = Static<typeof StatusView>;
export type HistoryEntry = StatusView['history'][number];

/** The details a partner may see: the shipment's carrier, tracking number and link, nothing else. */
export function shipmentOf(details: string | null): Shipment | undefined {
  if (details === null) return undefined;
  const parsed = JSON.parse(details) as { carrier?: unknown; tracking_no?: unknown; tracking_url?: unknown };
  if (typeof parsed.carrier !== 'string' || typeof parsed.tracking_no !== 'string') return undefined;
  const shipment: Shipment = { carrier: parsed.carrier, tracking_no: parsed.tracking_no };
  if (typeof parsed.tracking_url === 'string') shipment.tracking_url = parsed.tracking_url;
  return shipment;
}

/** The field lists a partner may see in a history entry: what was asked for, sent and changed. */
function fieldListsOf(details: string | null): Partial<Record<FieldListName, string[]>> {
  if (details === null) return {};
  const parsed = JSON.parse(details) as Record<string, unknown>;
  const lists: Partial<Record<FieldListName, string[]>> = {};
  for (const name of FIELD_LISTS) {
    const value = parsed[name];
    if (Array.isArray(value)) lists[name] = value.filter((v): v is string => typeof v === 'string');
  }
  return lists;
}

const FIELD_LISTS = ['requested_fields', 'amended_fields', 'changed_fields'] as const;
type FieldListName = (typeof FIELD_LISTS)[number];

export function statusView(
  row: {
    busi_water_no: string;
    external_id?: string | null | undefined;
    status: string;
    status_reason: string | null;
    reason_codes?: string | null | undefined;
    requested_fields?: string | null | undefined;
    card_no_masked: string;
    created_at: number;
    updated_at: number;
  },
  history: readonly HistoryRow[],
  documents: DocumentOutcomes,
): StatusView {
  return {
    busi_water_no: row.busi_water_no,
    external_id: row.external_id ?? null,
    status: storedStatus(row.status),
    status_reason: row.status_reason,
    reason_codes: partnerReasonCodes(reasonCodesOf(row.reason_codes)),
    requested_fields: fieldListOf(row.requested_fields),
    card_no_masked: row.card_no_masked,
    created_at: unixSeconds(row.created_at),
    updated_at: unixSeconds(row.updated_at),
    history: history.map((h) => {
      const entry: HistoryEntry = {
        status: h.to_status,
        at: unixSeconds(h.at),
        reason: h.reason,
        reason_codes: partnerReasonCodes(reasonCodesOf(h.reason_codes)),
      };
      const shipment = shipmentOf(h.details);
      if (shipment !== undefined) entry.details = shipment;
      Object.assign(entry, fieldListsOf(h.details));
      return entry;
    }),
    documents,
  };
}

export async function queryApplication(
  ctx: ServiceContext,
  partner: Partner,
  busiWaterNo: string,
): Promise<StatusView> {
  // A string that cannot be a serial is not looked up: it answers like an unknown one.
  if (!isSerialNumber(busiWaterNo)) throw new ServiceError('applicationNotFound');
  const row = await findApplicationOfApp(ctx.store.db, partner.appId, busiWaterNo);
  if (row === undefined) throw new ServiceError('applicationNotFound');
  const history = await listHistory(ctx.store.db, busiWaterNo);
  const documents = await partnerOutcomes({ db: ctx.store.db, keyRing: ctx.keyRing }, [row]);
  return statusView(row, history, documents.get(busiWaterNo) ?? {});
}
