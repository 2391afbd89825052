import { hostname } from 'node:os';
import type { Logger } from 'pino';
import type { ServiceContext } from '../context.ts';
import { startPeriodicJob } from '../jobs/periodicJob.ts';
import { compactAfterErasure, eraseRestricted, runRetention } from './retention.ts';

/**
 * The scheduled retention run of a service process, every RETENTION_INTERVAL_SECONDS. Every instance
 * runs it; each erasure happens (and is audited) once. With RETENTION_DAYS set it erases the final
 * applications older than that; always, the applications a deletion request restricted under
 * record keeping whose date has come (docs/PRIVACY.md), with nobody acting.
 */
export function startRetentionJob(
  ctx: ServiceContext,
  logger: Logger,
): { stop(): Promise<void> } | undefined {
  const days = ctx.config.operations.retentionDays;
  const log = logger.child({ component: 'retention' });
  const job = startPeriodicJob(ctx, logger, {
    name: 'retention',
    intervalMs: ctx.config.operations.retentionIntervalMs,
    firstRunAfterMs: Math.min(ctx.config.operations.retentionIntervalMs, 30_000),
    run: async (stopping) => {
      if (days === undefined) {
        const restricted = await eraseRestricted(ctx, {
          dryRun: false,
          source: `retention job ${hostname()}`,
          shouldStop: stopping,
        });
        if (restricted.count > 0) {
          ctx.metrics.erasures.inc(restricted.count);
          await compactAfterErasure(ctx);
          log.info(
            { erased: restricted.count },
            'restricted applications erased at the end of record keeping',
          );
        }
        return;
      }
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
