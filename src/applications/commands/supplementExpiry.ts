import { hostname } from 'node:os';
import type { Logger } from 'pino';
import { SYSTEM } from '../../audit/actor.ts';
import type { ServiceContext } from '../../context.ts';
import { ServiceError } from '../../errors/serviceError.ts';
import { startPeriodicJob } from '../../jobs/periodicJob.ts';
import { transitionApplication } from './transitionApplication.ts';
import { findSupplementsDue } from '../../record/applicationRepository.ts';

/**
 * Requests for more information lapse: an application still SUPPLEMENT_REQUIRED when its
 * `supplement_due_at` (SUPPLEMENT_DAYS after the request) has passed becomes EXPIRED, through the
 * one transition function (history, `application.expired` event, audit entry). Time is `ctx.now()`,
 * so a test moves the clock. Every instance runs the job; of two moving one application, one wins
 * and the other finds it moved already.
 */

const BATCH = 100;

export async function expireSupplements(
  ctx: ServiceContext,
  options: { source: string; shouldStop?: () => boolean },
): Promise<{ expired: string[] }> {
  const expired: string[] = [];
  for (;;) {
    const due = await findSupplementsDue(ctx.store.db, ctx.now(), BATCH);
    let moved = 0;
    for (const { busi_water_no: serial } of due) {
      try {
        await transitionApplication(ctx, {
          busiWaterNo: serial,
          to: 'EXPIRED',
          actor: SYSTEM,
          reason: `not amended within ${ctx.config.supplementDays} days`,
          source: options.source,
        });
        expired.push(serial);
        moved++;
      } catch (error) {
        // Amended, cancelled or expired by another instance since it was read: nothing to do.
        if (
          error instanceof ServiceError &&
          ['transitionNotAllowed', 'concurrentChange'].includes(error.error)
        )
          continue;
        throw error;
      }
    }
    if (due.length < BATCH || moved === 0 || options.shouldStop?.() === true) return { expired };
  }
}

/** How often the service looks for lapsed requests. */
const INTERVAL_MS = 10 * 60_000;

export function startSupplementExpiryJob(ctx: ServiceContext, logger: Logger): { stop(): Promise<void> } {
  const log = logger.child({ component: 'supplement-expiry' });
  return startPeriodicJob(ctx, logger, {
    name: 'supplement-expiry',
    intervalMs: INTERVAL_MS,
    firstRunAfterMs: 30_000,
    run: async (stopping) => {
      const { expired } = await expireSupplements(ctx, {
        source: `supplement expiry job ${hostname()}`,
        shouldStop: stopping,
      });
      if (expired.length > 0) log.info({ expired: expired.length }, 'requests for information lapsed');
    },
  });
}
