import type { Logger } from 'pino';
import type { ServiceContext } from '../context.ts';
import type { ApplicationEventPayload } from '../events/outbox.ts';

/**
 * Durable background jobs: fetching an application's documents, screening its applicant,
 * re-screening after a list import. A job is queued inside the transaction of the change that asks
 * for it: the outbox relay queues the jobs a kind wants for each new event in the transaction that
 * fans the event out (so the submit itself pays nothing), and other changes call `enqueueJobs` in
 * their own transaction. Runners claim due jobs under a lease; one that dies leaves a lease that
 * runs out, and the job is claimed again. A job therefore runs at least once: `run` is idempotent.
 * This file says what a job and a kind are; jobRepository.ts holds the queue's rows.
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
  /** `payload`, when given, replaces the stored one: what a long job did, for a status page. */
  | { readonly outcome: 'done'; readonly payload?: unknown }
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
