import type { Logger } from 'pino';
import type { ServiceContext } from '../context.ts';
import { documentRows } from '../documents/documentRepository.ts';
import type { JobKind, OutboxEvent } from '../jobs/jobQueue.ts';
import { RISK_ASSESS_KIND } from '../jobs/reassess.ts';
import { assessApplication, type AssessOutcome } from './assessApplication.ts';

const KIND = RISK_ASSESS_KIND;

/**
 * What follows an assessment in the job: the policy acting on its routing
 * (applications/commands/policyDecision.ts, wired in worker/jobKinds.ts, as it moves applications,
 * which is above this folder). Run for every assessment, stored or the same as the latest, so that a
 * job retried after a crash between the two still decides.
 */
export type AfterAssessment = (
  ctx: ServiceContext,
  serial: string,
  assessed: Extract<AssessOutcome, { outcome: 'assessed' }>,
  log: Logger,
) => Promise<unknown>;

/**
 * The events that bring an application evidence: an amendment, its images settled. Not the
 * submission: its images are never settled then (they are fetched after it), and a job for every
 * submitted batch cost the submit benchmark about a quarter of its rate, for nothing.
 */
export const ASSESSED_ON = [
  'application.amended',
  'application.documents_kept',
  'application.document_failed',
] as const;

/** How long before a waiting application is looked at again: doubling from 15 s to 30 minutes. */
const waitMs = (attempts: number) => Math.min(15_000 * 2 ** Math.max(0, attempts - 1), 30 * 60_000);

/**
 * Rates the applications of a relay batch whose evidence changed (risk/assessApplication.ts), one
 * job per batch as screening does. An application whose images are still being fetched waits: the
 * job comes back for it, less and less often, until its images settle or its fetch window closes
 * (DOCUMENT_FETCH_HOURS; a failed image settles it too). Idempotent: an assessment the same as the
 * latest is not stored again.
 */
export function riskJobKind(afterAssessment?: AfterAssessment): JobKind {
  return {
    kind: KIND,
    onEvents: {
      types: ASSESSED_ON,
      jobsFor(events: readonly OutboxEvent[]) {
        const serials = [...new Set(events.map((event) => event.busi_water_no))];
        return [
          {
            kind: KIND,
            // Unique: each event is fanned out in one committed batch only.
            key: events[0]!.event_id,
            busi_water_no: serials.length === 1 ? serials[0] : null,
            payload: { serials, cause: [...new Set(events.map((event) => event.type))].join(',') },
          },
        ];
      },
    },
    async run(ctx, job, log) {
      const { serials = [], cause = 'job' } = (job.payload ?? {}) as { serials?: string[]; cause?: string };
      // Which applications still have an image being fetched, in one query and without decrypting
      // any: an application's rows are written together when its fetch begins, so none is no start.
      const rows = await documentRows(ctx.store.db, serials);
      const pending = new Set(rows.filter((row) => row.state === 'pending').map((row) => row.busi_water_no));
      const started = new Set(rows.map((row) => row.busi_water_no));
      const waiting = serials.filter((serial) => pending.has(serial) || !started.has(serial));
      for (const serial of serials.filter((s) => !waiting.includes(s))) {
        const result = await assessApplication(ctx, serial, cause, log);
        if (result.outcome === 'waiting') waiting.push(serial);
        if (result.outcome === 'assessed' && result.stored) {
          ctx.metrics.riskAssessed(result.assessment.tier, ctx.now() - job.created_at);
        }
        if (result.outcome === 'assessed') await afterAssessment?.(ctx, serial, result, log);
      }
      if (waiting.length === 0) return { outcome: 'done' };
      const giveUpAt = job.created_at + ctx.config.documents.fetchForMs + 3_600_000;
      if (ctx.now() > giveUpAt)
        return { outcome: 'failed', error: `images never settled: ${waiting.length}` };
      return { outcome: 'retry', at: ctx.now() + waitMs(job.attempts), payload: { serials: waiting, cause } };
    },
  };
}
