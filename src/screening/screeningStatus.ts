import type { ServiceContext } from '../context.ts';
import { latestJobsOf } from '../jobs/jobRepository.ts';
import { RESCREEN_KIND, type RescreenProgress } from './rescreenJob.ts';
import { screeningReadiness } from './screeningReadiness.ts';
import { listVersions, versionsInForce, type ListVersion } from './listRepository.ts';
import { screeningAlerts } from './hitRepository.ts';

/** A version as the wire shows it: times in seconds. */
export const versionView = (version: ListVersion) => ({
  ...version,
  imported_at: Math.floor(version.imported_at / 1000),
  rescreen:
    version.rescreen === null
      ? null
      : { ...version.rescreen, finished_at: Math.floor(version.rescreen.finished_at / 1000) },
});

/**
 * What is in force, what was imported lately (each import with what it changed and what its
 * re-screen found), what holds applications, and how the re-screens go.
 */
export async function screeningStatus(ctx: ServiceContext) {
  const db = ctx.store.db;
  const jobs = await latestJobsOf(db, RESCREEN_KIND, 5);
  return {
    readiness: await screeningReadiness(ctx),
    in_force: (await versionsInForce(db)).map(versionView),
    imports: (await listVersions(db, 20)).map(versionView),
    ...(await screeningAlerts(db)),
    rescreens: jobs.map((job) => {
      const progress = (job.payload === null ? {} : JSON.parse(job.payload)) as Partial<RescreenProgress>;
      return {
        version_id: job.job_key,
        status: job.status,
        screened: progress.screened ?? 0,
        hits: progress.hits ?? 0,
      };
    }),
  };
}
