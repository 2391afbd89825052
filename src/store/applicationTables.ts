import type { Generated } from 'kysely';

/**
 * The application record's tables, as Kysely sees them (`tables.ts` lists them in Database): the
 * row, its events (which are its history too), its review claim, and the history's table before
 * migration 0066.
 */

/** The states of an application, in the lifecycle's order (record/lifecycle.ts says who may move between them). */
export const STATUSES = [
  'SUBMITTED',
  'IN_REVIEW',
  'APPROVED',
  'CARD_ISSUED',
  'SHIPPED',
  'DELIVERED',
  'REJECTED',
  'CANCELLED',
  'SUPPLEMENT_REQUIRED',
  'EXPIRED',
  'RETURNED',
] as const;

export type Status = (typeof STATUSES)[number];

export interface ApplicationsTable {
  busi_water_no: string;
  app_id: string;
  status: Status;
  status_reason: string | null;
  /** Codes of the `reason` table given with the last change (JSON array), or null. */
  reason_codes?: string | null;
  cert_type: string;
  /** Keyed hash of cert_type + cert_id: finds other applications for the same document. */
  cert_hash: string;
  /** cert_hash while the application is not final, else null: a unique index keeps one active per document. */
  active_cert_hash: string | null;
  /** Keyed hash of the card number: unique across all applications. */
  card_no_hash: string;
  card_no_masked: string;
  /** The whole submitted application, encrypted (AES-256-GCM, key id inside the token). */
  payload_enc: string;
  key_id: string;
  /** When retention erased its identity data (payload_enc then holds a tombstone); null before. */
  erased_at?: number | null;
  /** The partner's own reference (`external_id`), in the clear; null when the submit had none. */
  external_id?: string | null;
  /** external_id while the application is not final, else null: unique per app (a unique index). */
  active_external_id?: string | null;
  /** While SUPPLEMENT_REQUIRED: the fields the partner is to send again (JSON array); else null. */
  requested_fields?: string | null;
  /** While SUPPLEMENT_REQUIRED: when the request lapses (the application becomes EXPIRED). */
  supplement_due_at?: number | null;
  /**
   * The tier of the latest risk assessment as a rank (migration 0086, kept by a trigger on
   * risk_assessments): 0 not yet rated, 1 low, 2 medium, 3 high, 4 prohibited.
   */
  risk_rank?: number;
  /**
   * Kept under anti-money-laundering record keeping until then (ms) after a deletion request, and
   * erased by retention at that date; withdrawn meanwhile from every operator but a compliance one's
   * (migration 0120). Null: not restricted.
   */
  restricted_until?: number | null;
  /** Optimistic concurrency: incremented by every change. */
  version: number;
  created_at: number;
  updated_at: number;
}

/**
 * An application's history before migration 0066 moved it into its events (0067). This version
 * neither writes nor reads it; an instance of the earlier version still writes it during a rolling
 * deploy (0066's trigger copies that into the event), and the next release drops it.
 */
export interface ApplicationTransitionsTable {
  id: Generated<number>;
  busi_water_no: string;
  from_status: Status | null;
  to_status: Status;
  actor: string;
  reason: string | null;
  reason_codes?: string | null;
  details: string | null;
  at: number;
}

export interface ReviewClaimsTable {
  busi_water_no: string;
  username: string;
  claimed_at: number;
  /** The claim lapses then (ms) unless renewed. */
  expires_at: number;
}

export interface EventsTable {
  event_id: string;
  app_id: string;
  busi_water_no: string;
  type: string;
  /** JSON text of the event payload; never identity data. */
  payload: string;
  created_at: number;
  /** 1, 2, 3... per application: receivers order an application's events by it. */
  seq: number;
  /**
   * -1 for an event of this version (events/outbox.ts, FAN_OUT_TRACKED_APART): its fan-out is
   * tracked in `events_pending` (migration 0069), the event is never updated. An event of the
   * earlier version is written null and set to when a dispatcher created its deliveries.
   */
  fanned_out_at: number | null;
  /**
   * The change of state the event reports, as the application's history shows it (migration
   * 0066): all null on an event that is no change of state (a document's outcome). The history
   * of an application is its events with a `to_status`, in `seq` order, at their `created_at`.
   */
  from_status?: Status | null;
  to_status?: Status | null;
  /** `caller:<app_id>`, `operator:<username>` or `system`. */
  actor?: string | null;
  reason?: string | null;
  /** Codes of the `reason` table given with the change (JSON array), or null. */
  reason_codes?: string | null;
  /** JSON text with the change's details (carrier and tracking number for SHIPPED), or null. */
  details?: string | null;
}

/**
 * An event waiting for its fan-out (migration 0069): deleted, in the fan-out's transaction, when its
 * deliveries and jobs are created. Its key is the claim's order.
 */
export interface EventsPendingTable {
  created_at: number;
  event_id: string;
}

/** The history fields of an event that reports a change of state (`to_status` set). */
export interface EventHistory {
  from_status: Status | null;
  to_status: Status;
  actor: string;
  reason: string | null;
  reason_codes: string | null;
  details: string | null;
}
