import { randomInt } from 'node:crypto';
import { AMENDED_EVENT } from '../applications/lifecycle.ts';
import type { JobKind, JobResult } from '../jobs/jobQueue.ts';
import { fetchApplicationDocuments } from './fetchDocuments.ts';
import { DOCUMENT_FIELDS, isDocumentField } from './outcome.ts';

/**
 * `documents.fetch`: queued by the outbox relay in the transaction that fans out an
 * `application.submitted` (every image field) or an `application.amended` (the image fields sent
 * again), so the submit pays nothing. Unreachable documents are tried again with backoff until
 * DOCUMENT_FETCH_HOURS after the event, then failed for good; the job's payload keeps the fields
 * still to do. Idempotent (fetchDocuments.ts): a run after a crash does only what is left.
 */

export const DOCUMENT_FETCH_KIND = 'documents.fetch';
const SUBMITTED_EVENT = 'application.submitted';

interface FetchJobPayload {
  fields: string[];
}

/** 0.5 to 1 × min(1 h, 30 s × 2^(n-1)): spread out, never sooner than half the step. */
function backoffMs(attempts: number): number {
  const step = Math.min(3_600_000, 30_000 * 2 ** Math.min(attempts - 1, 20));
  return step / 2 + randomInt(step / 2 + 1);
}

export const documentFetchJob: JobKind = {
  kind: DOCUMENT_FETCH_KIND,
  // Four applications at once, their fields in parallel: up to twenty fetches per runner.
  concurrency: 4,
  // Longer than a run can take (fields in parallel, each within DOCUMENT_TIMEOUT_MS, ≤ 60 s), and no
  // longer: a process that died holding the job leaves it for this long (90 s by default).
  leaseMs: (ctx) => ctx.config.documents.timeoutMs * 1.5,
  onEvent: {
    types: [SUBMITTED_EVENT, AMENDED_EVENT],
    jobsFor(event) {
      const fields =
        event.type === SUBMITTED_EVENT
          ? [...DOCUMENT_FIELDS]
          : (event.payload.amended_fields ?? []).filter(isDocumentField);
      if (fields.length === 0) return [];
      const payload: FetchJobPayload = { fields };
      return [
        { kind: DOCUMENT_FETCH_KIND, key: event.event_id, busi_water_no: event.busi_water_no, payload },
      ];
    },
  },
  async run(ctx, job, log, signal): Promise<JobResult> {
    const busiWaterNo = job.busi_water_no;
    const fields = (job.payload as FetchJobPayload | null)?.fields;
    if (busiWaterNo === null || !Array.isArray(fields)) return { outcome: 'failed', error: 'malformed job' };
    const giveUpAt = job.created_at + ctx.config.documents.fetchForMs;
    const now = ctx.now();
    const run = await fetchApplicationDocuments(ctx, busiWaterNo, fields, log, {
      giveUp: now >= giveUpAt,
      signal,
    });
    if (run.retry.length === 0) return { outcome: 'done' };
    const payload: FetchJobPayload = { fields: run.retry };
    // The last try is made at the give-up time itself.
    const at = Math.min(now + backoffMs(job.attempts), giveUpAt);
    return { outcome: 'retry', at, error: run.lastError ?? 'unreachable', payload };
  },
};
