import { pooledRandomBytes } from '../crypto/randomPool.ts';
import type { DocumentOutcomes } from './documentOutcomes.ts';
import type { SubjectRequestEventPayload } from './subjectRequestPayload.ts';
import type { EventHistory, EventsTable } from '../store/tables.ts';

/**
 * The outbox's rules: an event row is written in the same transaction as the change it reports, so
 * there is no change without its event and no event without its change. The webhook dispatcher
 * fans new rows out into deliveries later (a trigger lists each new event in `events_pending` until
 * then), so the change itself pays for one insert only, and the event row is never updated. The
 * event of a change of state is also its entry in the application's history (`history`: from, to,
 * actor, reason, details): one row for both. This file builds the row and touches no store: the
 * events' repository appends it (eventRepository.ts, `appendEvent`), in the change's
 * transaction.
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
  /** application.supplement_required: the fields the partner is to send again. */
  requested_fields?: string[];
  /** application.amended: the fields the partner sent again, and those whose value changed. */
  amended_fields?: string[];
  changed_fields?: string[];
  /** application.documents_kept / application.document_failed: the documents concerned. */
  documents?: DocumentOutcomes;
}

/**
 * `evt_` and 32 hexadecimal digits: the event's time in milliseconds (12 digits), then 80 random
 * bits. Ids in the order of time put each new event at the right-hand end of the events table's
 * primary key, as the serial numbers do for the applications, where a wholly random id dirtied a
 * leaf page of its own for every event (a page to read and write per submission, and on PostgreSQL
 * a full-page image after each checkpoint). Nothing takes an event's time from its id.
 */
export function newEventId(at: number): string {
  const millis = Math.min(Math.max(0, Math.floor(at)), MAX_MILLIS);
  return `evt_${millis.toString(16).padStart(12, '0')}${pooledRandomBytes(10).toString('hex')}`;
}

/** The largest time 12 hexadecimal digits hold (the year 10889). */
const MAX_MILLIS = 0xffff_ffff_ffff;

/** An event to record; `history` when it reports a change of state (not a document's outcome). */
export interface NewEvent {
  appId: string;
  type: string;
  /** An application's change, or (`subject_request.*`) the end of a request naming it. */
  payload: ApplicationEventPayload | SubjectRequestEventPayload;
  at: number;
  history?: EventHistory | undefined;
}

/**
 * The `fanned_out_at` this version writes: the event's fan-out is tracked in `events_pending`
 * (migration 0069), so the event is written once and never updated. The earlier version wrote null
 * and set it when it fanned the event out; its fan-out claims only nulls, so it never takes these.
 */
export const FAN_OUT_TRACKED_APART = -1;

/** An event's row, all but its place in the application's sequence (`appendEvent` gives it). */
export type EventRow = Omit<EventsTable, 'seq'>;

/** The row of an event to append to its application's. */
export function eventRow(event: NewEvent): EventRow {
  return {
    event_id: newEventId(event.at),
    app_id: event.appId,
    busi_water_no: event.payload.busi_water_no,
    type: event.type,
    payload: JSON.stringify(event.payload),
    created_at: event.at,
    fanned_out_at: FAN_OUT_TRACKED_APART,
    ...event.history,
  };
}

/** The row of an application's first event (its submission): sequence 1, nothing to look up. */
export function firstEventRow(event: NewEvent & { history: EventHistory }): EventsTable & EventHistory {
  // The history once more, for the type: a first event always has one.
  return { ...eventRow(event), ...event.history, seq: 1 };
}
