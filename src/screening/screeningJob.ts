import type { JobKind } from '../jobs/jobQueue.ts';
import { screeningIndexFor } from './indexCache.ts';
import { SCREENED_FIELDS, screenApplications } from './screenApplications.ts';

/**
 * Screens one application after its submission, and after an amendment that changed a screened
 * field. Queued by the outbox relay in the commit that fans the event out, so the submit pays
 * nothing; idempotent, since a hit already recorded is not recorded again.
 */
export const screeningJob: JobKind = {
  kind: 'screening.screen',
  onEvent: {
    types: ['application.submitted', 'application.amended'],
    jobsFor(event) {
      if (event.type === 'application.amended') {
        const changed = event.payload.changed_fields ?? [];
        if (!changed.some((field) => (SCREENED_FIELDS as readonly string[]).includes(field))) return [];
      }
      return [{ kind: 'screening.screen', key: event.event_id, busi_water_no: event.busi_water_no }];
    },
  },
  async run(ctx, job, log) {
    if (job.busi_water_no === null) return { outcome: 'failed', error: 'no application' };
    const row = await ctx.store.db
      .selectFrom('applications')
      .select(['busi_water_no', 'status', 'payload_enc'])
      .where('busi_water_no', '=', job.busi_water_no)
      .executeTakeFirst();
    if (row === undefined) return { outcome: 'done' };
    await screenApplications(ctx, await screeningIndexFor(ctx.store), [row], log);
    return { outcome: 'done' };
  },
};
