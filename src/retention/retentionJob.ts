import { hostname } from 'node:os';
import type { Logger } from 'pino';
import type { ServiceContext } from '../context.ts';
import { startPeriodicJob } from '../jobs/periodicJob.ts';
import { runRetention } from './retention.ts';

/**
 * The scheduled retention run of a service process, every RETENTION_INTERVAL_SECONDS, when
 * RETENTION_DAYS is set. Every instance runs it; each erasure happens (and is audited) once.
 */
export function startRetentionJob(
  ctx: ServiceContext,
  logger: Logger,
): { stop(): Promise<void> } | undefined {
  const days = ctx.config.operations.retentionDays;
  if (days === undefined) return undefined;
  const log = logger.child({ component: 'retention' });
  const job = startPeriodicJob(ctx, logger, {
    name: 'retention',
    intervalMs: ctx.config.operations.retentionIntervalMs,
    firstRunAfterMs: Math.min(ctx.config.operations.retentionIntervalMs, 30_000),
    run: async (stopping) => {
      const report = await runRetention(ctx, {
        days,
        dryRun: false,
        source: `retention job ${hostname()}`,
        shouldStop: stopping,
      });
      if (report.count > 0) {
        log.info(
          { erased: report.count, retention_days: days, store_compacted: report.store_compacted },
          'identity data of old final applications erased',
        );
      }
    },
  });
  return job;
}
