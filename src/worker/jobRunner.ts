import { randomInt } from 'node:crypto';
import { hostname } from 'node:os';
import { scheduler } from 'node:timers/promises';
import type { Logger } from 'pino';
import type { ServiceContext } from '../context.ts';
import { wakeablePause } from '../shutdown.ts';
import { describe } from '../errors/describe.ts';
import {
  DEFAULT_JOB_CONCURRENCY,
  DEFAULT_JOB_LEASE_MS,
  type ClaimedJob,
  type JobKind,
  type JobResult,
} from '../jobs/jobQueue.ts';
import { claimJobs, completeJob, pruneFinishedJobs } from '../jobs/jobRepository.ts';
import { JOB_KINDS } from './jobKinds.ts';

/**
 * The job runner: a loop that claims due jobs of every kind (as many as the kind has free slots,
 * so nothing waits in memory while its lease runs), runs each, and records how it ended. It runs in
 * the service's background process (once per machine under WORKERS) and in `cardapply worker`;
 * any number of runners share one store. Finished jobs are kept a week, then pruned.
 */

export interface JobRunnerOptions {
  kinds?: readonly JobKind[];
  workerId?: string;
  pollIntervalMs?: number;
  /** How long stop() lets runs in flight finish before it aborts them (they are retried). */
  stopGraceMs?: number;
  /** Called after every run: the hook for metrics and tests. */
  onRun?: (report: { job: ClaimedJob; result: JobResult; recorded: boolean }) => void;
}

export interface JobRunner {
  readonly workerId: string;
  /** Looks for due jobs now rather than at the next poll. */
  wake(): void;
  /** Stops claiming, lets runs in flight finish (or aborts them) and resolves when done. */
  stop(): Promise<void>;
}

/** A run that threw is tried again after 0 to min(1 h, 5 s × 2^(n-1)): full jitter, as webhooks do. */
function retryDelayMs(attempts: number): number {
  return randomInt(Math.min(3_600_000, 5_000 * 2 ** Math.min(attempts - 1, 20)) + 1);
}
/** How long a finished job is kept for an operator's look. */
const KEEP_FINISHED_MS = 7 * 86_400_000;
const PRUNE_EVERY_MS = 3_600_000;

export function startJobRunner(
  ctx: ServiceContext,
  logger: Logger,
  options: JobRunnerOptions = {},
): JobRunner {
  const kinds = options.kinds ?? JOB_KINDS;
  const workerId = options.workerId ?? `${hostname()}:${process.pid}:jobs-${randomInt(2 ** 32).toString(36)}`;
  const pollIntervalMs = options.pollIntervalMs ?? ctx.config.webhooks.pollIntervalMs;
  const stopGraceMs = options.stopGraceMs ?? Math.floor(ctx.config.shutdownGraceMs / 2);
  const log = logger.child({ component: 'jobs', worker: workerId });
  const inFlight = new Map<string, Set<Promise<void>>>(kinds.map((kind) => [kind.kind, new Set()]));
  const abort = new AbortController();
  let stopping = false;
  let prunedAt = 0;

  const pause = wakeablePause();

  /**
   * Runs start one event-loop turn apart. The runner shares its process with the requests, and a
   * run's store calls on the embedded store are synchronous (their promises settle as microtasks):
   * runs claimed together ran their synchronous parts back to back, one long task that every request
   * waited behind. A turn apart, requests get answered between them.
   */
  let lastStart: Promise<void> = Promise.resolve();
  const nextTurn = (): Promise<void> => (lastStart = lastStart.then(() => scheduler.yield()));

  async function runOne(kind: JobKind, job: ClaimedJob): Promise<void> {
    const jobLog = log.child({ job_id: job.id, kind: job.kind, attempt: job.attempts });
    let result: JobResult;
    try {
      await nextTurn();
      result = await kind.run(ctx, job, jobLog, abort.signal);
    } catch (error) {
      // The message of a thrown error is the kind's own; it is logged, never stored.
      jobLog.warn({ err: describe(error) }, 'job run failed; it will be tried again');
      const at = ctx.now() + (abort.signal.aborted ? 0 : retryDelayMs(job.attempts));
      result = { outcome: 'retry', at, error: abort.signal.aborted ? 'interrupted' : 'internal error' };
    }
    const recorded = await completeJob(
      ctx.store,
      { id: job.id, workerId, giveUpAt: job.give_up_at },
      result,
      ctx.now(),
    );
    if (!recorded) jobLog.warn('job lease ran out before the run ended; another runner has it');
    if (result.outcome === 'failed') jobLog.warn({ error: result.error }, 'job failed for good');
    options.onRun?.({ job, result, recorded });
  }

  function track(kind: JobKind, work: Promise<void>): void {
    const running = inFlight.get(kind.kind) ?? new Set();
    const settled: Promise<void> = work
      .catch((error: unknown) => log.error({ err: describe(error) }, 'job could not be recorded'))
      .finally(() => {
        running.delete(settled);
        pause.wake();
      });
    running.add(settled);
  }

  /** Claims what every kind has room for; true when some kind filled all its free slots. */
  async function claimRound(): Promise<boolean> {
    let more = false;
    for (const kind of kinds) {
      const running = inFlight.get(kind.kind) ?? new Set();
      const free = (kind.concurrency ?? DEFAULT_JOB_CONCURRENCY) - running.size;
      if (free <= 0 || stopping) continue;
      const claimed = await claimJobs(ctx.store, {
        kind: kind.kind,
        workerId,
        now: ctx.now(),
        leaseMs:
          typeof kind.leaseMs === 'function' ? kind.leaseMs(ctx) : (kind.leaseMs ?? DEFAULT_JOB_LEASE_MS),
        limit: free,
      });
      for (const job of claimed) track(kind, runOne(kind, job));
      more = more || claimed.length === free;
    }
    return more;
  }

  async function loop(): Promise<void> {
    while (!stopping) {
      let more = false;
      try {
        more = await claimRound();
        if (ctx.now() - prunedAt > PRUNE_EVERY_MS) {
          prunedAt = ctx.now();
          await pruneFinishedJobs(ctx.store, prunedAt - KEEP_FINISHED_MS, 10_000);
        }
      } catch (error) {
        log.warn({ err: describe(error) }, 'job runner could not reach the store');
      }
      if (stopping) break;
      if (!more) await pause(pollIntervalMs);
    }
  }

  const looping = loop();
  log.info({ kinds: kinds.map((kind) => kind.kind), poll_interval_ms: pollIntervalMs }, 'job runner started');

  let stopped: Promise<void> | undefined;
  return {
    workerId,
    wake: () => pause.wake(),
    stop() {
      stopped ??= (async () => {
        stopping = true;
        pause.wake();
        await looping;
        const all = [...inFlight.values()].flatMap((running) => [...running]);
        const grace = new Promise<void>((resolve) => setTimeout(resolve, stopGraceMs).unref());
        await Promise.race([Promise.all(all), grace]);
        abort.abort();
        await Promise.all(all);
      })();
      return stopped;
    },
  };
}
