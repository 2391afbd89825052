import type { Generated } from 'kysely';

/**
 * The tables, as Kysely sees them. Times are Unix milliseconds (BIGINT / INTEGER) everywhere in the
 * store; the wire shows seconds. Booleans are never stored (node:sqlite has none).
 */
export interface Database {
  apps: AppsTable;
  app_secrets: AppSecretsTable;
  access_tokens: AccessTokensTable;
  applications: ApplicationsTable;
  application_transitions: ApplicationTransitionsTable;
  events: EventsTable;
}

export type AppStatus = 'active' | 'disabled';

export interface AppsTable {
  app_id: string;
  name: string;
  status: AppStatus;
  /** Per-app rate limit; null means the configured default. */
  rate_limit_per_second: number | null;
  rate_limit_burst: number | null;
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
  /** Optimistic concurrency: incremented by every change. */
  version: number;
  created_at: number;
  updated_at: number;
}

export interface ApplicationTransitionsTable {
  id: Generated<number>;
  busi_water_no: string;
  from_status: string | null;
  to_status: string;
  /** `caller:<app_id>`, `operator:<username>` or `system`. */
  actor: string;
  reason: string | null;
  /** JSON text with transition details (carrier and tracking number for SHIPPED), or null. */
  details: string | null;
  at: number;
}

export interface EventsTable {
  event_id: string;
  app_id: string;
  busi_water_no: string;
  type: string;
  /** JSON text of the event payload; never identity data. */
  payload: string;
  created_at: number;
}
