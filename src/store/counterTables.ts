import type { Status } from './applicationTables.ts';
/**
 * The counters that triggers keep beside the applications (`tables.ts` lists them in Database):
 * read as sums, so a request reads a page whatever the size of the tables.
 */

/**
 * Applications per app and status, kept by triggers on `applications` (migration 0036) for the
 * rows created at or after its `counter_fills` row's `below`, and filled in batches under it after
 * the migration (counterFills.ts); read as `sum(n)`: PostgreSQL keeps several shards of one count
 * (`shard`, absent on SQLite).
 */
export interface ApplicationCountsTable {
  app_id: string;
  status: Status;
  n: number;
}

/**
 * Applications per app, Unix day of creation (milliseconds / 86400000) and status, kept by
 * triggers on `applications` (migration 0051); read as `sum(n)`, as application_counts.
 */
export interface ApplicationDaysTable {
  app_id: string;
  day: number;
  status: Status;
  n: number;
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
  /** Of the decisions, those the risk policy took itself (actor `policy:<version>`; migration 0086). */
  policy_decisions?: number;
}

/**
 * Rated applications that are not final, per rank of their tier (applications.risk_rank, 1 low to
 * 4 prohibited), kept by triggers (migration 0086); read as `sum(n)`, as application_counts.
 */
export interface RiskTierCountsTable {
  risk_rank: number;
  n: number;
}

/** Counters filled in batches after their migration (src/store/counterFills.ts). */
export interface CounterFillsTable {
  name: string;
  /** Rows whose key is at or above it are counted; a BIGINT, beyond a JavaScript number. */
  below: string | number;
}
