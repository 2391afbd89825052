import type { Generated } from 'kysely';
import type { ScreeningEntriesTable, ScreeningHitsTable, ScreeningListsTable } from './screeningTables.ts';

/**
 * The tables, as Kysely sees them. Times are Unix milliseconds (BIGINT / INTEGER) everywhere in the
 * store; the wire shows seconds. Booleans are never stored (node:sqlite has none).
 */
export interface Database {
  apps: AppsTable;
  app_secrets: AppSecretsTable;
  access_tokens: AccessTokensTable;
  applications: ApplicationsTable;
  /** The history before migration 0066; only an instance of the earlier version still writes it. */
  application_transitions: ApplicationTransitionsTable;
  application_counts: ApplicationCountsTable;
  workload_hours: WorkloadHoursTable;
  application_days: ApplicationDaysTable;
  counter_fills: CounterFillsTable;
  idempotency_keys: IdempotencyKeysTable;
  operators: OperatorsTable;
  operator_sessions: OperatorSessionsTable;
  operator_password_history: OperatorPasswordHistoryTable;
  operator_recovery_codes: OperatorRecoveryCodesTable;
  operator_totp: OperatorTotpTable;
  review_claims: ReviewClaimsTable;
  audit_log: AuditLogTable;
  events: EventsTable;
  webhook_endpoints: WebhookEndpointsTable;
  webhook_secrets: WebhookSecretsTable;
  deliveries: DeliveriesTable;
  delivery_attempts: DeliveryAttemptsTable;
  jobs: JobsTable;
  documents: DocumentsTable;
  document_chunks: DocumentChunksTable;
  screening_lists: ScreeningListsTable;
  screening_entries: ScreeningEntriesTable;
  screening_hits: ScreeningHitsTable;
}

export type AppStatus = 'active' | 'disabled';

/**
 * Applications per app and status, kept by triggers on `applications` (migration 0036) for the
 * rows created at or after its `counter_fills` row's `below`, and filled in batches under it after
 * the migration (counterFills.ts); read as `sum(n)`: PostgreSQL keeps several shards of one count
 * (`shard`, absent on SQLite).
 */
export interface ApplicationCountsTable {
  app_id: string;
  status: string;
  n: number;
}

/**
 * Applications per app, Unix day of creation (milliseconds / 86400000) and status, kept by
 * triggers on `applications` (migration 0051); read as `sum(n)`, as application_counts.
 */
export interface ApplicationDaysTable {
  app_id: string;
  day: number;
  status: string;
  n: number;
}

/** Counters filled in batches after their migration (src/store/counterFills.ts). */
export interface CounterFillsTable {
  name: string;
  /** Rows whose key is at or above it are counted; a BIGINT, beyond a JavaScript number. */
  below: string | number;
}

/**
 * Per Unix hour (milliseconds / 3600000) of the last eight days: applications created in it and
 * decisions (APPROVED, REJECTED) taken in it, kept by triggers (migration 0050); read as sums, as
 * PostgreSQL keeps several shards of one hour.
 */
export interface WorkloadHoursTable {
  hour: number;
  arrivals: number;
  decisions: number;
}

export interface AppsTable {
  app_id: string;
  name: string;
  status: AppStatus;
  /** Per-app rate limit; null means the configured default. */
  rate_limit_per_second: number | null;
  rate_limit_burst: number | null;
  /** Per-app cap on requests in progress at once in a process; null means APP_CONCURRENCY_LIMIT. */
  concurrency_limit: number | null;
  created_at: number;
  updated_at: number;
}

export interface AppSecretsTable {
  /** SHA-256 of the secret; the secret itself is shown once and never stored. */
  secret_hash: string;
  app_id: string;
  created_at: number;
  /** Set when the secret is being rotated out: it keeps working until then. */
  expires_at: number | null;
}

export interface AccessTokensTable {
  token_hash: string;
  app_id: string;
  created_at: number;
  expires_at: number;
  revoked_at: number | null;
}

export interface ApplicationsTable {
  busi_water_no: string;
  app_id: string;
  status: string;
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
  /** While SUPPLEMENT_REQUIRED: the fields the caller is to send again (JSON array); else null. */
  requested_fields?: string | null;
  /** While SUPPLEMENT_REQUIRED: when the request lapses (the application becomes EXPIRED). */
  supplement_due_at?: number | null;
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
  from_status: string | null;
  to_status: string;
  actor: string;
  reason: string | null;
  reason_codes?: string | null;
  details: string | null;
  at: number;
}

export interface OperatorsTable {
  username: string;
  role: 'viewer' | 'reviewer' | 'admin';
  /** `hashPassword` output (argon2id, or an earlier scrypt one until the next sign-in); never the password. */
  password_hash: string;
  /** 0 or 1: a disabled operator cannot log in and its sessions stop working. */
  disabled: number;
  created_at: number;
  updated_at: number;
  /** Failed sign-ins in a row; reset by a successful one. */
  failed_logins: Generated<number>;
  /** Until when sign-in is refused after too many failures (ms), or null. */
  locked_until: number | null;
}

export interface OperatorTotpTable {
  username: string;
  /** The base32 secret, encrypted with the key ring (aad `operator-totp:<username>`). */
  secret_enc: string;
  key_id: string;
  created_at: number;
  /** Null while the enrolment waits for its first code. */
  confirmed_at: number | null;
  /** The TOTP time step of the last accepted code: it and earlier ones are refused (replay). */
  last_step: number | null;
}

export interface ReviewClaimsTable {
  busi_water_no: string;
  username: string;
  claimed_at: number;
  /** The claim lapses then (ms) unless renewed. */
  expires_at: number;
}

export interface OperatorPasswordHistoryTable {
  username: string;
  password_hash: string;
  created_at: number;
}

export interface OperatorRecoveryCodesTable {
  username: string;
  /** SHA-256 of the code; the code is shown once, at enrolment. */
  code_hash: string;
  created_at: number;
  used_at: number | null;
}

export interface OperatorSessionsTable {
  /** SHA-256 of the opaque session token; the token is shown once, at login. */
  token_hash: string;
  username: string;
  created_at: number;
  /** The absolute end of the session (ms). */
  expires_at: number;
  revoked_at: number | null;
  /** The last request of the session (ms): idle for longer than the setting, it has ended. */
  last_seen_at: number;
  /** `full`, or `enrol`: signed in with a password alone where a second factor is required. */
  scope: 'full' | 'enrol';
}

/** Append-only: never updated or deleted (triggers refuse it). Never an identity value in it. */
export interface AuditLogTable {
  id: Generated<number>;
  at: number;
  /** `operator:<username>`, `caller:<app_id>`, `system` or `anonymous` (a failed login). */
  actor: string;
  /** `application.transition`, `application.reveal`, `operator.login`, `app.create`, ... */
  action: string;
  target_type: string | null;
  target_id: string | null;
  /** JSON text: what changed (states, field name, role); never a value of an identity field. */
  details: string | null;
  /** Where it came from: `admin-api <ip>`, `caller-api`, `cli <os user>`. */
  source: string;
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
  /** When the dispatcher created its deliveries; null until then. */
  fanned_out_at: number | null;
  /**
   * The change of state the event reports, as the application's history shows it (migration
   * 0066): all null on an event that is no change of state (a document's outcome). The history
   * of an application is its events with a `to_status`, in `seq` order, at their `created_at`.
   */
  from_status?: string | null;
  to_status?: string | null;
  /** `caller:<app_id>`, `operator:<username>` or `system`. */
  actor?: string | null;
  reason?: string | null;
  /** Codes of the `reason` table given with the change (JSON array), or null. */
  reason_codes?: string | null;
  /** JSON text with the change's details (carrier and tracking number for SHIPPED), or null. */
  details?: string | null;
}

/** The history fields of an event that reports a change of state (`to_status` set). */
export interface EventHistory {
  from_status: string | null;
  to_status: string;
  actor: string;
  reason: string | null;
  reason_codes: string | null;
  details: string | null;
}

export type WebhookEndpointStatus = 'active' | 'disabled';

export interface WebhookEndpointsTable {
  id: string;
  app_id: string;
  url: string;
  /** JSON array of event types, or null for every type. */
  event_types: string | null;
  status: WebhookEndpointStatus;
  /** Since when its attempts fail with no success in between; null when the last one succeeded. */
  failing_since?: number | null;
  /** Why the service disabled it (`failing`), or null. */
  disabled_reason?: string | null;
  created_at: number;
  updated_at: number;
}

export interface WebhookSecretsTable {
  id: string;
  endpoint_id: string;
  /** The whsec_ secret encrypted with the key ring (it signs, so it cannot be a hash). */
  secret_enc: string;
  key_id: string;
  created_at: number;
  /** Set when rotated out: it keeps signing until then. */
  expires_at: number | null;
}

export type DeliveryStatus = 'pending' | 'delivering' | 'delivered' | 'failed';

export interface DeliveriesTable {
  id: string;
  event_id: string;
  endpoint_id: string;
  status: DeliveryStatus;
  attempt_count: number;
  /** When it may be claimed: the next retry, or the end of the lease while delivering. */
  next_attempt_at: number;
  /** Retries stop after this time. */
  give_up_at: number;
  lease_until: number | null;
  leased_by: string | null;
  last_status_code: number | null;
  last_error: string | null;
  delivered_at: number | null;
  created_at: number;
  updated_at: number;
}

export interface DeliveryAttemptsTable {
  id: Generated<number>;
  delivery_id: string;
  started_at: number;
  /** Null when the worker never reported (killed; the lease expired). */
  duration_ms: number | null;
  status_code: number | null;
  error: string | null;
  worker: string;
}

/** One row per (app, key): claimed while the operation runs, then its response, for replays. */
export interface IdempotencyKeysTable {
  app_id: string;
  idempotency_key: string;
  /** SHA-256 of the operation and the canonical body; the body itself is never stored. */
  request_hash: string;
  state: 'in_progress' | 'completed';
  /** Random per claim: only its holder may complete or release it. */
  claim_token: string;
  /** While in progress: after this a retry may take the claim over (its holder crashed). */
  locked_until: number | null;
  /** A response recorded by the HTTP layer: its status and body exactly as sent, replayed byte for byte. */
  status_code: number | null;
  response_body: string | null;
  /** Or the domain result (JSON) of an operation that recorded its own success: replayed as its envelope. */
  result: string | null;
  created_at: number;
  expires_at: number;
}

export type JobStatus = 'pending' | 'running' | 'done' | 'failed';

/** A durable background job (src/jobs/): claimed under a lease, run at least once. */
export interface JobsTable {
  id: string;
  kind: string;
  /** Unique per kind: queuing the same key twice is a no-op. */
  job_key: string;
  busi_water_no: string | null;
  /** JSON text; never identity data in the clear. */
  payload: string | null;
  status: JobStatus;
  attempts: number;
  /** When it may be claimed: the next try, or the end of the lease while running. */
  run_at: number;
  lease_until: number | null;
  leased_by: string | null;
  give_up_at: number | null;
  last_error: string | null;
  created_at: number;
  updated_at: number;
  finished_at: number | null;
}

/** One image field's document (documents/): what became of its fetch, and the kept copy's facts. */
export interface DocumentsTable {
  busi_water_no: string;
  field: string;
  state: 'pending' | 'kept' | 'failed';
  /** failed: unreachable, not_a_document, too_large, too_small or refused_address. */
  reason: string | null;
  /** Keyed hash of the URL this state is about: an amend to another URL starts again. */
  url_hash: string;
  /** kept: its encrypted chunks in document_chunks. */
  blob_id: string | null;
  content_type: string | null;
  byte_size: number | null;
  /** Hex SHA-256 of the bytes as served. */
  sha256: string | null;
  width: number | null;
  height: number | null;
  chunk_count: number | null;
  fetched_at: number | null;
  updated_at: number;
}

export interface DocumentChunksTable {
  /** `<blob_id>.<seq>`: with the serial, the aad of its encryption. */
  chunk_id: string;
  blob_id: string;
  busi_water_no: string;
  field: string;
  seq: number;
  key_id: string;
  /** iv || AES-256-GCM ciphertext || tag. */
  chunk_enc: Uint8Array;
}
