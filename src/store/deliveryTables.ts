import type { Generated } from 'kysely';

/**
 * The tables of the work that follows a change (`tables.ts` lists them in Database): webhook
 * endpoints, deliveries and their attempts, and durable background jobs.
 */

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
