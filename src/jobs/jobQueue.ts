import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { ServiceContext } from '../context.ts';
import type { ApplicationEventPayload } from '../events/outbox.ts';
import type { Store } from '../store/store.ts';
import type { Database } from '../store/tables.ts';

/**
 * Durable background jobs: fetching an application's documents, screening its applicant,
 * re-screening after a list import. A job is queued inside the transaction of the change that asks
 * for it: the outbox relay queues the jobs a kind wants for each new event in the transaction that
 * fans the event out (so the submit itself pays nothing), and other changes call `enqueueJobs` in
 * their own transaction. Runners claim due jobs under a lease; one that dies leaves a lease that
 * runs out, and the job is claimed again. A job therefore runs at least once: `run` is idempotent.
 */

/** An outbox event as the relay hands it to a kind. */
export interface OutboxEvent {
  event_id: string;
  app_id: string;
  busi_water_no: string;
  type: string;
  payload: ApplicationEventPayload;
  /** Milliseconds. */
  created_at: number;
}

export interface JobSpec {
  /** The kind that runs it, e.g. `documents.fetch`. */
  kind: string;
  /** Unique per kind: a second enqueue with the same key is a no-op (the relay is at-least-once). */
  key: string;
  busi_water_no?: string | null | undefined;
  /** JSON-serialisable; never identity data in the clear. */
  payload?: unknown;
  /** Milliseconds; now when not given. */
  runAt?: number | undefined;
  /** After this (ms), a job that asks to run again is failed for good; never when not given. */
  giveUpAt?: number | null | undefined;
}

export interface ClaimedJob {
  id: string;
  kind: string;
  key: string;
  busi_water_no: string | null;
  payload: unknown;
  /** Counting this one: 1 on the first run. */
  attempts: number;
  created_at: number;
  give_up_at: number | null;
}

export type JobResult =
  | { readonly outcome: 'done' }
  /** Run again at `at` (ms); `payload` replaces the stored one (progress of a long job). */
  | { readonly outcome: 'retry'; readonly at: number; readonly error?: string; readonly payload?: unknown }
  | { readonly outcome: 'failed'; readonly error: string };

export interface JobKind {
  readonly kind: string;
  /** Event types that queue jobs of this kind when the relay sees them, and which jobs. */
  readonly onEvent?: {
    readonly types: readonly string[];
    jobsFor(event: OutboxEvent): JobSpec[];
  };
  /**
   * The same, once per relay batch (up to a hundred events under load) with the batch's events of
   * `types`: for a kind whose run is cheap per application and dear per job (a claim, a run and a
   * completion, each a write), so that one job serves the whole batch.
   */
  readonly onEvents?: {
    readonly types: readonly string[];
    jobsFor(events: readonly OutboxEvent[]): JobSpec[];
  };
  /**
   * Runs one claimed job. A throw counts as a retry after the queue's backoff. `signal` aborts when
   * the runner stops and its grace has run out: a long job should stop early and return a retry
   * with its progress.
   */
  run(ctx: ServiceContext, job: ClaimedJob, log: Logger, signal: AbortSignal): Promise<JobResult>;
  /** Jobs of this kind that one runner runs at once (default 4). */
  readonly concurrency?: number;
  /**
   * A job whose runner died is claimed again after this (ms, default 60 s): longer than a run can
   * take, or a function of the configuration when that is what bounds a run.
   */
  readonly leaseMs?: number | ((ctx: ServiceContext) => number);
}

export const DEFAULT_JOB_CONCURRENCY = 4;
export const DEFAULT_JOB_LEASE_MS = 60_000;

/** Queues jobs inside the caller's transaction (or on their own); a known key is left as it is. */
export async function enqueueJobs(
  db: Kysely<Database>,
  jobs: readonly JobSpec[],
  now: number,
): Promise<void> {
  if (jobs.length === 0) return;
  await db
    .insertInto('jobs')
    .values(
      jobs.map((job) => ({
        id: `job_${randomUUID()}`,
        kind: job.kind,
        job_key: job.key,
        busi_water_no: job.busi_water_no ?? null,
        payload: job.payload === undefined ? null : JSON.stringify(job.payload),
        status: 'pending' as const,
        attempts: 0,
        run_at: job.runAt ?? now,
        lease_until: null,
        leased_by: null,
        give_up_at: job.giveUpAt ?? null,
        last_error: null,
        created_at: now,
        updated_at: now,
        finished_at: null,
      })),
    )
    .onConflict((oc) => oc.columns(['kind', 'job_key']).doNothing())
    .execute();
}

/** The jobs that `kinds` ask for when the relay sees `events`. */
export function jobsForEvents(kinds: readonly JobKind[], events: readonly OutboxEvent[]): JobSpec[] {
  const each = events.flatMap((event) =>
    kinds.flatMap((kind) =>
      kind.onEvent !== undefined && kind.onEvent.types.includes(event.type)
        ? kind.onEvent.jobsFor(event)
        : [],
    ),
  );
  const batched = kinds.flatMap((kind) => {
    if (kind.onEvents === undefined) return [];
    const types = kind.onEvents.types;
    const wanted = events.filter((event) => types.includes(event.type));
    return wanted.length === 0 ? [] : kind.onEvents.jobsFor(wanted);
  });
  return [...each, ...batched];
}

/**
 * Takes up to `limit` due jobs of one kind: pending ones whose time has come, and running ones whose
 * lease ran out (their runner died). Each is leased to `workerId` until `now + leaseMs`.
 */
export async function claimJobs(
  store: Store,
  options: { kind: string; workerId: string; now: number; leaseMs: number; limit: number },
): Promise<ClaimedJob[]> {
  const { kind, workerId, now, leaseMs, limit } = options;
  const due = (db: Kysely<Database>) =>
    db
      .selectFrom('jobs')
      .where('kind', '=', kind)
      .where('status', 'in', ['pending', 'running'])
      .where('run_at', '<=', now);
  // A read first, so that an idle runner does not take SQLite's write lock on every poll.
  if ((await due(store.db).select('id').limit(1).executeTakeFirst()) === undefined) return [];
  return store.transaction(async (trx) => {
    const query = due(trx)
      .select(['id', 'kind', 'job_key', 'busi_water_no', 'payload', 'attempts', 'created_at', 'give_up_at'])
      .orderBy('run_at')
      .limit(limit);
    const rows = await store.skipLocked(query).execute();
    if (rows.length === 0) return [];
    const leaseUntil = now + leaseMs;
    await trx
      .updateTable('jobs')
      .set((eb) => ({
        status: 'running',
        attempts: eb('attempts', '+', 1),
        run_at: leaseUntil,
        lease_until: leaseUntil,
        leased_by: workerId,
        updated_at: now,
      }))
      .where(
        'id',
        'in',
        rows.map((row) => row.id),
      )
      .execute();
    return rows.map((row) => ({
      id: row.id,
      kind: row.kind,
      key: row.job_key,
      busi_water_no: row.busi_water_no,
      payload: row.payload === null ? null : (JSON.parse(row.payload) as unknown),
      attempts: row.attempts + 1,
      created_at: row.created_at,
      give_up_at: row.give_up_at,
    }));
  });
}

/**
 * Records how a run ended, if this runner still holds the job's lease (false when it ran out and
 * another runner took the job over: that runner's result counts). A retry past `give_up_at` fails.
 */
export async function completeJob(
  store: Store,
  job: { id: string; workerId: string; giveUpAt: number | null },
  result: JobResult,
  now: number,
): Promise<boolean> {
  const gaveUp = result.outcome === 'retry' && job.giveUpAt !== null && result.at > job.giveUpAt;
  const error = result.outcome === 'done' ? null : (result.error ?? null);
  const finished = result.outcome !== 'retry' || gaveUp;
  const updated = await store.db
    .updateTable('jobs')
    .set({
      status: finished ? (result.outcome === 'done' ? 'done' : 'failed') : 'pending',
      run_at: result.outcome === 'retry' && !gaveUp ? result.at : now,
      lease_until: null,
      leased_by: null,
      last_error: error === null ? null : error.slice(0, 500),
      updated_at: now,
      finished_at: finished ? now : null,
      ...(result.outcome === 'retry' && result.payload !== undefined
        ? { payload: JSON.stringify(result.payload) }
        : {}),
    })
    .where('id', '=', job.id)
    .where('status', '=', 'running')
    .where('leased_by', '=', job.workerId)
    .executeTakeFirst();
  return updated.numUpdatedRows > 0n;
}

/** The latest jobs of a kind, newest first: for a status page. */
export async function latestJobsOf(db: Kysely<Database>, kind: string, limit: number) {
  return db
    .selectFrom('jobs')
    .select(['job_key', 'status', 'payload'])
    .where('kind', '=', kind)
    .orderBy('created_at', 'desc')
    .limit(limit)
    .execute();
}

/** Deletes finished jobs older than `before` (ms), at most `limit`; returns how many. */
export async function pruneFinishedJobs(store: Store, before: number, limit: number): Promise<number> {
  const old = await store.db
    .selectFrom('jobs')
    .select('id')
    .where('finished_at', 'is not', null)
    .where('finished_at', '<', before)
    .limit(limit)
    .execute();
  if (old.length === 0) return 0;
  await store.db
    .deleteFrom('jobs')
    .where(
      'id',
      'in',
      old.map((row) => row.id),
    )
    .execute();
  return old.length;
}
