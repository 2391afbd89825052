import type { JobSpec } from './jobQueue.ts';

/**
 * Asking for new risk assessments when evidence changes outside an application's own events: a
 * re-screen that recorded a hit or a PEP match, a hit resolved, a partner's risk level changed
 * (docs/RISK.md). The `risk.assess` kind itself lives with the rating (risk/riskJob.ts); this is
 * only the job's shape, here so that screening, below the rating, can ask for it too. Queued in
 * the transaction of the change, so that no change is left without its assessment.
 */
export const RISK_ASSESS_KIND = 'risk.assess';

/** Serials per job: a partner with many applications gets several jobs, each a short run. */
const PER_JOB = 200;

/**
 * The jobs that assess `serials` again; `key` names the change (unique per change: the queue
 * ignores a second enqueue with the same key, so a retried change asks once).
 */
export function reassessJobs(serials: readonly string[], cause: string, key: string): JobSpec[] {
  const unique = [...new Set(serials)].sort();
  const jobs: JobSpec[] = [];
  for (let i = 0; i < unique.length; i += PER_JOB) {
    const chunk = unique.slice(i, i + PER_JOB);
    jobs.push({
      kind: RISK_ASSESS_KIND,
      key: `${key}:${i / PER_JOB}`,
      busi_water_no: chunk.length === 1 ? chunk[0] : null,
      payload: { serials: chunk, cause },
    });
  }
  return jobs;
}
