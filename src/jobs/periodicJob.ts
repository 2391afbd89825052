import type { Logger } from 'pino';
import type { ServiceContext } from '../context.ts';
import { describe } from '../errors/describe.ts';

export interface PeriodicJob {
  /** Runs the job now rather than at the end of the interval. */
  wake(): void;
  /** Lets a run in progress reach its next stopping point, and resolves when it has. */
  stop(): Promise<void>;
}

export interface PeriodicJobOptions {
  /** As in metrics (`job` label), logs and /readyz. */
  name: string;
  intervalMs: number;
  /** Wait before the first run; the interval when not given. */
  firstRunAfterMs?: number;
  /** One run; it should look at `stopping()` between batches. */
  run: (stopping: () => boolean) => Promise<void>;
}

/**
 * A background job of the service process: runs every `intervalMs` (or when woken), one run at a
 * time, counted in `cardapply_job_runs_total`. A failed run is logged and retried at the next
 * interval; the job is registered with the process's workers, so /readyz reports it if its loop
 * ever ends without a stop.
 */
export function startPeriodicJob(
  ctx: ServiceContext,
  logger: Logger,
  options: PeriodicJobOptions,
): PeriodicJob {
  const log = logger.child({ component: options.name });
  let stopping = false;
  let alive = true;
  let wakeUp: (() => void) | undefined;
  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms);
      timer.unref();
      function done() {
        clearTimeout(timer);
        wakeUp = undefined;
        resolve();
      }
      wakeUp = done;
    });

  async function loop(): Promise<void> {
    await sleep(options.firstRunAfterMs ?? options.intervalMs);
    while (!stopping) {
      try {
        await options.run(() => stopping);
        ctx.metrics.jobRuns.inc({ job: options.name, result: 'ok' });
      } catch (error) {
        ctx.metrics.jobRuns.inc({ job: options.name, result: 'error' });
        log.warn({ err: describe(error) }, `${options.name} run failed; retrying at the next interval`);
      }
      if (!stopping) await sleep(options.intervalMs);
    }
  }

  ctx.workers.register(options.name, () => alive || stopping);
  const looping = loop()
    .catch((error: unknown) => log.error({ err: describe(error) }, `${options.name} stopped unexpectedly`))
    .finally(() => (alive = false));
  return {
    wake: () => wakeUp?.(),
    stop: async () => {
      stopping = true;
      wakeUp?.();
      await looping;
      ctx.workers.unregister(options.name);
    },
  };
}
