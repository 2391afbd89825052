import { Type, type Static } from 'typebox';
import { DocumentOutcomes } from '../../events/documentOutcomes.ts';
import type { ApplicationEventPayload } from '../../events/outbox.ts';
import {
  isSubjectRequestEventType,
  SubjectRequestView,
  type SubjectRequestEventPayload,
} from '../../events/subjectRequestPayload.ts';
import type { EventsTable } from '../../store/tables.ts';
import { EVENT_TYPES, STATUSES, storedStatus } from '../../record/lifecycle.ts';

/**
 * The wire form of an application's event, the same in a webhook body and in the partner's event
 * list (the outbox in events/ stores it; the payload is written by changeState). The payload never
 * holds identity data; `sequence` orders the events of one application. The schema is the
 * response schema, the document's and the type.
 */
export const EventView = Type.Object({
  id: Type.String({ description: 'The event id; the `webhook-id` header of its deliveries.' }),
  type: Type.Enum([...EVENT_TYPES], {
    description:
      "`application.` and the state moved into, in lower case; `application.amended`; `application.documents_kept` and `application.document_failed` (no move: what became of the documents); `subject_request.completed`, `subject_request.restricted` and `subject_request.refused` (an applicant's request through the partner ended: `data.subject_request`).",
    examples: ['application.approved'],
  }),
  created_at: Type.Integer({ description: 'Unix seconds.' }),
  data: Type.Union([
    Type.Object({
      busi_water_no: Type.String({ description: 'The serial number of the application.' }),
      sequence: Type.Integer({
        description: "1, 2, 3... per application: order an application's events by it.",
      }),
      status: Type.Enum([...STATUSES], { description: 'The state after the change.' }),
      previous_status: Type.Union([Type.Enum([...STATUSES]), Type.Null()], {
        description: 'The state before the change; null for the submission.',
      }),
      reason: Type.Union([Type.String(), Type.Null()], { description: 'Why, when the change has a reason.' }),
      reason_codes: Type.Array(Type.String(), {
        description:
          'Codes of the `reason` table (see the codes endpoint) given with the change; empty when none.',
      }),
      card_no_masked: Type.String({ description: 'First 6 and last 4 digits; the rest `*`.' }),
      external_id: Type.Union([Type.String(), Type.Null()], {
        description: "The partner's own reference of the application, or null.",
      }),
      requested_fields: Type.Optional(
        Type.Array(Type.String(), {
          description: 'application.supplement_required: the fields to send again with the amend.',
        }),
      ),
      amended_fields: Type.Optional(
        Type.Array(Type.String(), { description: 'application.amended: the fields sent again.' }),
      ),
      changed_fields: Type.Optional(
        Type.Array(Type.String(), { description: 'application.amended: the fields whose value changed.' }),
      ),
      documents: Type.Optional({
        ...DocumentOutcomes,
        description:
          'application.documents_kept: every image the application carries, kept; application.document_failed: the field that failed for good, with its reason.',
      }),
    }),
    Type.Object(
      {
        busi_water_no: Type.String({ description: 'The application the partner named in the request.' }),
        sequence: Type.Integer({
          description:
            "1, 2, 3... per application: the request's end takes its place among the named application's events.",
        }),
        subject_request: {
          ...SubjectRequestView,
          description: 'subject_request.*: the request as it ended, as its query answers it.',
        },
      },
      { description: 'subject_request.completed, .restricted, .refused.' },
    ),
  ]),
});
export type EventView = Static<typeof EventView>;

export function eventView(
  row: Pick<EventsTable, 'event_id' | 'type' | 'payload' | 'created_at' | 'seq'>,
): EventView {
  if (isSubjectRequestEventType(row.type)) {
    const ended = JSON.parse(row.payload) as SubjectRequestEventPayload;
    return {
      id: row.event_id,
      type: row.type,
      created_at: Math.floor(row.created_at / 1000),
      data: { busi_water_no: ended.busi_water_no, sequence: row.seq, subject_request: ended.subject_request },
    };
  }
  const payload = JSON.parse(row.payload) as ApplicationEventPayload;
  return {
    id: row.event_id,
    type: row.type,
    created_at: Math.floor(row.created_at / 1000),
    data: {
      busi_water_no: payload.busi_water_no,
      sequence: row.seq,
      status: storedStatus(payload.status),
      previous_status: payload.previous_status === null ? null : storedStatus(payload.previous_status),
      reason: payload.reason,
      // Events written before reason codes existed have none.
      reason_codes: payload.reason_codes ?? [],
      card_no_masked: payload.card_no_masked,
      external_id: payload.external_id ?? null,
      ...(payload.requested_fields === undefined ? {} : { requested_fields: payload.requested_fields }),
      ...(payload.amended_fields === undefined ? {} : { amended_fields: payload.amended_fields }),
      ...(payload.changed_fields === undefined ? {} : { changed_fields: payload.changed_fields }),
      ...(payload.documents === undefined ? {} : { documents: payload.documents }),
    },
  };
}

/** An event of the application itself (a move, the amendment, the documents): not a subject request's. */
export type ApplicationEventView = Omit<EventView, 'data'> & {
  data: Extract<EventView['data'], { status: unknown }>;
};
