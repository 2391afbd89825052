import type { JobKind, JobSpec } from '../jobs/jobQueue.ts';
import { unerasedAfter } from '../record/applicationRepository.ts';
import { screeningIndexFor } from './indexCache.ts';
import {
  matchKey,
  screenApplications,
  type MatchedEntries,
  type ScreenedCount,
} from './screenApplications.ts';
import { rescreenOutcome, SHOWN, type NoLongerHit } from './importChanges.ts';
import { recordRescreenOutcome } from './listRepository.ts';
import { openHitsOf } from './hitRepository.ts';
import type { Kysely } from 'kysely';
import type { Database } from '../store/tables.ts';

export const RESCREEN_KIND = 'screening.rescreen';

/** Progress, kept in the job's payload: a runner that dies resumes after the last batch recorded. */
export interface RescreenProgress extends ScreenedCount, Partial<NoLongerHit> {
  version_id: string;
  /** The last serial screened; null before the first batch. */
  after: string | null;
}

/** Applications read and screened per batch. */
const BATCH = 500;
/** A run hands its progress back this often, so a SIGKILL loses at most this much work. */
const SLICE_MS = 2_000;

export function rescreenJob(versionId: string): JobSpec {
  const progress: RescreenProgress = {
    version_id: versionId,
    after: null,
    screened: 0,
    hits: 0,
    unreadable: 0,
    no_longer_hit: 0,
    no_longer_hit_applications: [],
  };
  return { kind: RESCREEN_KIND, key: versionId, payload: progress };
}

/**
 * The applications of a batch that an open hit holds on an entry the batch's screening no longer
 * matched: the entry left the list or changed, or the applicant no longer scores.
 */
async function noLongerHit(db: Kysely<Database>, matched: MatchedEntries): Promise<string[]> {
  const open = await openHitsOf(db, [...matched.keys()]);
  const serials = open
    .filter((hit) => matched.get(hit.busi_water_no)?.has(matchKey(hit.list, hit.reference)) !== true)
    .map((hit) => hit.busi_water_no);
  return [...new Set(serials)].sort();
}

/**
 * Every application not yet erased, screened again against the lists in force after an import, in
 * serial order, batch by batch; each application not yet final that gains a hit or a PEP match is
 * queued for a new risk assessment (docs/RISK.md). Each run works for a few seconds and returns its progress (the
 * queue stores it), so the job resumes where it stopped after a crash; a batch screened twice
 * records nothing twice.
 */
export const rescreenJobKind: JobKind = {
  kind: RESCREEN_KIND,
  concurrency: 1,
  // A run is a slice (2 s) and one batch, after building the lists' index once per process (about
  // 0.6 s for 30,000 names): 10 s covers it five times over, and is how long a killed worker's
  // successor waits.
  leaseMs: 10_000,
  async run(ctx, job, log, signal) {
    const progress = { ...(job.payload as RescreenProgress) };
    const index = await screeningIndexFor(ctx.store);
    const started = Date.now();
    while (Date.now() - started < SLICE_MS && !signal.aborted) {
      const rows = await unerasedAfter(ctx.store.db, progress.after, BATCH);
      if (rows.length === 0) {
        // What the re-screen found stays with the version (the job is pruned in time).
        const outcome = await rescreenOutcome(ctx.store.db, progress.version_id, progress, ctx.now());
        await recordRescreenOutcome(ctx.store.db, progress.version_id, outcome);
        log.info(
          {
            event: 'screening.rescreen_done',
            ...progress,
            no_longer_hit_applications: undefined,
            newly_hit: outcome.newly_hit,
          },
          're-screen finished',
        );
        // The counts stay with the job: `screening status` reads them from its payload.
        return { outcome: 'done', payload: progress };
      }
      const count = await screenApplications(ctx, index, rows, log, { reassess: 'screening.rescreen' });
      const gone = await noLongerHit(ctx.store.db, count.matched);
      progress.no_longer_hit = (progress.no_longer_hit ?? 0) + gone.length;
      progress.no_longer_hit_applications = [...(progress.no_longer_hit_applications ?? []), ...gone].slice(
        0,
        SHOWN,
      );
      progress.after = rows[rows.length - 1]!.busi_water_no;
      progress.screened += count.screened;
      progress.hits += count.hits;
      progress.unreadable += count.unreadable;
    }
    return { outcome: 'retry', at: ctx.now(), payload: progress };
  },
};
