import type { JobKind, OutboxEvent } from '../jobs/jobQueue.ts';
import { sealedApplications } from '../record/applicationRepository.ts';
import { screeningIndexFor } from './indexCache.ts';
import { SCREENED_FIELDS, screenApplications } from './screenApplications.ts';

const KIND = 'screening.screen';

/** A submission, or an amendment that changed a screened field. */
function screens(event: OutboxEvent): boolean {
  if (event.type !== 'application.amended') return true;
  const changed = event.payload.changed_fields ?? [];
  return changed.some((field) => (SCREENED_FIELDS as readonly string[]).includes(field));
}

/**
 * Screens the applications of a relay batch after their submission, or after an amendment that
 * changed a screened field. Queued by the outbox relay in the commit that fans the events out, so
 * the submit pays nothing; one job per batch (up to a hundred applications under load), so that
 * the job's own writes (claim, completion) are paid once per batch and not once per submission:
 * one per submission took as much of the core as the submissions themselves (docs/SCREENING.md).
 * Idempotent, since a hit already recorded is not recorded again.
 */
export const screeningJob: JobKind = {
  kind: KIND,
  onEvents: {
    types: ['application.submitted', 'application.amended'],
    jobsFor(events) {
      const wanted = events.filter(screens);
      if (wanted.length === 0) return [];
      const serials = [...new Set(wanted.map((event) => event.busi_water_no))];
      return [
        {
          kind: KIND,
          // Unique: each event is fanned out in one committed batch only.
          key: wanted[0]!.event_id,
          busi_water_no: serials.length === 1 ? serials[0] : null,
          payload: { serials },
        },
      ];
    },
  },
  async run(ctx, job, log) {
    // A job queued before batches names its one application in `busi_water_no` alone.
    const serials =
      (job.payload as { serials?: string[] } | null)?.serials ??
      (job.busi_water_no === null ? [] : [job.busi_water_no]);
    if (serials.length === 0) return { outcome: 'failed', error: 'no application' };
    const index = await screeningIndexFor(ctx.store);
    // No list in force: nothing to match, so nothing to decrypt (an import re-screens everything).
    if (index.entries.length === 0) return { outcome: 'done' };
    const rows = await sealedApplications(ctx.store.db, serials);
    if (rows.length === 0) return { outcome: 'done' };
    await screenApplications(ctx, index, rows, log);
    return { outcome: 'done' };
  },
};
