import type { Logger } from 'pino';
import { checkRekeyFinished, rekeyDocuments, rekeyFinished } from '../applications/commands/documentRekey.ts';
import type { ServiceContext } from '../context.ts';
import { startPeriodicJob } from '../jobs/periodicJob.ts';
import { LiveKeyRing } from '../crypto/liveKeyRing.ts';
import { reencryptAll } from './reencrypt.ts';

/** How often a service looks at DATA_DIR's key file for a rotation or a retirement. */
const KEY_FILE_CHECK_MS = 5_000;

/**
 * The key work of a service process: the re-encryption job (rows under older keys move to the
 * current key, batch by batch, while the service runs), the re-keying of the duplicate check's
 * document hashes to their canonical form (until none is left), and, with the key file of
 * DATA_DIR, a look at that file every few seconds so that a rotation is followed (and re-encryption
 * starts) without a restart. With several workers on a machine (WORKERS), every one follows the key
 * file and one runs the jobs (`jobs: false` in the others).
 */
export function startKeyJobs(
  ctx: ServiceContext,
  logger: Logger,
  options: { jobs?: boolean } = {},
): { stop(): Promise<void> } {
  const { batchSize, intervalMs } = {
    batchSize: ctx.config.keys.reencryptBatchSize,
    intervalMs: ctx.config.keys.reencryptIntervalMs,
  };
  const log = logger.child({ component: 'reencrypt' });
  const runsJobs = options.jobs !== false;
  const job = !runsJobs
    ? undefined
    : startPeriodicJob(ctx, logger, {
        name: 'reencrypt',
        intervalMs,
        // Soon after start: a restart is how a rotation reaches instances with ENCRYPTION_KEYS.
        firstRunAfterMs: Math.min(intervalMs, 2_000),
        run: async (stopping) => {
          const report = await reencryptAll(ctx, {
            batchSize,
            shouldStop: stopping,
            onBatch: (table, batch) => {
              if (batch.moved > 0) ctx.metrics.reencryptedRows.inc({ table }, batch.moved);
            },
          });
          const moved = Object.values(report.moved).reduce((a, b) => a + b, 0);
          if (moved > 0 || report.failed.length > 0) {
            log.info(
              {
                current_key_id: ctx.keyRing.currentKeyId,
                moved: report.moved,
                skipped: report.skipped,
                failed: report.failed.length,
                failed_first: report.failed.slice(0, 10),
              },
              'rows re-encrypted under the current key',
            );
          }
        },
      });

  const rekeyLog = logger.child({ component: 'document-rekey' });
  const rekey = !runsJobs
    ? // Another process re-keys; this one only learns when it is done, to stop the old-hash lookup
      // that each of its submissions makes until then (one read a submission, for nothing).
      startPeriodicJob(ctx, logger, {
        name: 'document-rekey-watch',
        intervalMs,
        firstRunAfterMs: Math.min(intervalMs, 2_000),
        run: async () => {
          await checkRekeyFinished(ctx.store);
        },
      })
    : startPeriodicJob(ctx, logger, {
        name: 'document-rekey',
        intervalMs,
        firstRunAfterMs: Math.min(intervalMs, 2_000),
        run: async (stopping) => {
          if (rekeyFinished(ctx.store)) return;
          const report = await rekeyDocuments(ctx, { batchSize, shouldStop: stopping });
          if (report.rekeyed + report.unchanged > 0 || report.conflicts.length + report.failed.length > 0) {
            rekeyLog.info(
              {
                rekeyed: report.rekeyed,
                unchanged: report.unchanged,
                skipped: report.skipped,
                pending: report.pending,
                // Serial numbers only: two active applications for one document, for a reviewer to resolve.
                conflicts: report.conflicts.slice(0, 10),
                failed: report.failed.length,
                failed_first: report.failed.slice(0, 10),
              },
              'document hashes re-keyed to the canonical document number',
            );
          }
        },
      });

  const ring = ctx.keyRing;
  let watch: NodeJS.Timeout | undefined;
  if (ring instanceof LiveKeyRing) {
    watch = setInterval(() => {
      if (ring.refreshIfChanged()) job?.wake();
    }, KEY_FILE_CHECK_MS);
    watch.unref();
  }
  return {
    stop: async () => {
      clearInterval(watch);
      await Promise.all([job?.stop(), rekey?.stop()]);
    },
  };
}
