import { pooledRandomBytes } from '../crypto/randomPool.ts';
import type { Kysely } from 'kysely';
import type { DocumentOutcomes } from './documentOutcomes.ts';
import type { Database, EventHistory, EventsTable } from '../store/tables.ts';
import { insertEvent, lastSeq } from './eventRepository.ts';

/**
 * The outbox: an event row is written in the same transaction as the change it reports, so there
 * is no change without its event and no event without its change. The webhook dispatcher fans new
 * rows out into deliveries later (`fanned_out_at` is null until then), so the change itself pays
 * for one insert only. The event of a change of state is also its entry in the application's
 * history (`history`: from, to, actor, reason, details): one row for both.
 */
export interface ApplicationEventPayload {
  busi_water_no: string;
  status: string;
  previous_status: string | null;
  reason: string | null;
  /** Codes of the `reason` table given with the change; empty when none. */
  reason_codes: string[];
  card_no_masked: string;
  /** The partner's reference of the application, or null. */
  external_id: string | null;
  /** application.supplement_required: the fields the caller is to send again. */
  requested_fields?: string[];
  /** application.amended: the fields the caller sent again, and those whose value changed. */
  amended_fields?: string[];
  changed_fields?: string[];
  /** application.documents_kept / application.document_failed: the documents concerned. */
  documents?: DocumentOutcomes;
}

export function newEventId(): string {
  return `evt_${pooledRandomBytes(16).toString('hex')}`;
}

/** An event to record; `history` when it reports a change of state (not a document's outcome). */
export interface NewEvent {
  appId: string;
  type: string;
  payload: ApplicationEventPayload;
  at: number;
  history?: EventHistory | undefined;
}

/** The row of an application's first event (its submission): sequence 1, nothing to look up. */
export function firstEventRow(event: NewEvent & { history: EventHistory }): EventsTable & EventHistory {
  return {
    event_id: newEventId(),
    app_id: event.appId,
    busi_water_no: event.payload.busi_water_no,
    type: event.type,
    payload: JSON.stringify(event.payload),
    created_at: event.at,
    seq: 1,
    fanned_out_at: null,
    ...event.history,
  };
}

/**
 * Records an event inside the caller's transaction. Its `seq` is the next number in the
 * application's own sequence (1 for the submission), which receivers order by. Call it after the
 * application row has been changed in the same transaction: on PostgreSQL the row lock then
 * serialises two changes of one application, so each sees the other's event (a unique index on
 * (busi_water_no, seq) refuses a duplicate in any case).
 */
export async function recordEvent(db: Kysely<Database>, event: NewEvent): Promise<string> {
  const eventId = newEventId();
  // The submission (no previous status) is an application's first event: no lookup on that path.
  const last = event.payload.previous_status === null ? 0 : await lastSeq(db, event.payload.busi_water_no);
  await insertEvent(db, {
    event_id: eventId,
    app_id: event.appId,
    busi_water_no: event.payload.busi_water_no,
    type: event.type,
    payload: JSON.stringify(event.payload),
    created_at: event.at,
    seq: last + 1,
    fanned_out_at: null,
    ...event.history,
  });
  return eventId;
}
