import type { Logger } from 'pino';
import type { ServiceContext } from '../context.ts';
import type { ClaimedJob, JobKind, JobResult, JobSpec } from '../jobs/jobQueue.ts';
import { enqueueJobs } from '../jobs/jobRepository.ts';
import { subjectExportPieces } from './subjectExport.ts';
import { deleteExportChunks, findExport, insertExport, markExportErased } from './subjectExportRepository.ts';
import { findSubjectRequestById } from './subjectRequestRepository.ts';
import { ExportWriter } from './subjectExportStore.ts';
import { endSubjectRequest } from './subjectOutcomes.ts';

/**
 * The jobs of an access or portability request (docs/PRIVACY.md). `subject_export.build`, queued
 * in the transaction that receives the request (the partner's call waits for nothing more), builds
 * the export, seals it chunk by chunk, and in one transaction records it, ends the request
 * `completed` and queues `subject_export.expire` for SUBJECT_EXPORT_HOURS later, which erases it if
 * the partner never downloaded it. Both are idempotent: a run after a crash starts over.
 */

export const SUBJECT_EXPORT_BUILD_KIND = 'subject_export.build';
export const SUBJECT_EXPORT_EXPIRE_KIND = 'subject_export.expire';
const JOB_SOURCE = 'subject export job';
const HOUR_MS = 3_600_000;

interface ExportJobPayload {
  request_id: string;
}

/** The build job of a request just received (the caller queues it in its transaction). */
export function subjectExportJob(requestId: string): JobSpec {
  const payload: ExportJobPayload = { request_id: requestId };
  return { kind: SUBJECT_EXPORT_BUILD_KIND, key: requestId, payload };
}

const requestIdOf = (job: ClaimedJob) => (job.payload as ExportJobPayload).request_id;

async function buildExport(ctx: ServiceContext, job: ClaimedJob, log: Logger): Promise<JobResult> {
  const requestId = requestIdOf(job);
  const request = await findSubjectRequestById(ctx.store.db, requestId);
  if (request === undefined) return { outcome: 'failed', error: 'no such request' };
  if ((await findExport(ctx.store.db, requestId)) !== undefined) return { outcome: 'done' };
  // Whatever a run that died left behind; and nothing to build once the request ended otherwise.
  await deleteExportChunks(ctx.store.db, requestId);
  if (request.status !== 'received' && request.status !== 'in_progress') return { outcome: 'done' };

  const writer = new ExportWriter(ctx, requestId);
  let ended = false;
  try {
    for await (const piece of subjectExportPieces(ctx, request)) await writer.write(piece);
    const sealed = await writer.finish();
    const now = ctx.now();
    const expiresAt = now + ctx.config.subjectExportHours * HOUR_MS;
    await ctx.store.transaction(async (trx) => {
      await insertExport(trx, {
        request_id: requestId,
        app_id: request.app_id,
        byte_size: sealed.byteSize,
        sha256: sealed.sha256,
        chunk_count: sealed.chunkCount,
        created_at: now,
        expires_at: expiresAt,
        fetched_at: null,
        erased_at: null,
      });
      await endSubjectRequest(
        ctx,
        trx,
        requestId,
        { status: 'completed' },
        { actor: 'system', source: JOB_SOURCE },
      );
      const expire: JobSpec = {
        kind: SUBJECT_EXPORT_EXPIRE_KIND,
        key: requestId,
        payload: { request_id: requestId } satisfies ExportJobPayload,
        runAt: expiresAt,
      };
      await enqueueJobs(trx, [expire], now);
    });
    ended = true;
    log.info(
      { request_id: requestId, bytes: sealed.byteSize, applications: JSON.parse(request.serials).length },
      'subject export ready',
    );
    return { outcome: 'done' };
  } finally {
    if (!ended) await deleteExportChunks(ctx.store.db, requestId).catch(() => undefined);
  }
}

async function expireExport(ctx: ServiceContext, job: ClaimedJob, log: Logger): Promise<JobResult> {
  const requestId = requestIdOf(job);
  const erased = await ctx.store.transaction(async (trx) => {
    await deleteExportChunks(trx, requestId);
    return markExportErased(trx, requestId, ctx.now());
  });
  if (erased) log.info({ request_id: requestId }, 'subject export expired undownloaded; erased');
  return { outcome: 'done' };
}

export const subjectExportBuildJob: JobKind = {
  kind: SUBJECT_EXPORT_BUILD_KIND,
  run: buildExport,
  // One export at a time per runner: it reads every kept document of the person.
  concurrency: 1,
  leaseMs: 10 * 60_000,
};

export const subjectExportExpireJob: JobKind = {
  kind: SUBJECT_EXPORT_EXPIRE_KIND,
  run: expireExport,
  concurrency: 1,
};

/** The subject requests' job kinds, which the runner runs beside worker/jobKinds.ts's (start.ts). */
export const SUBJECT_JOB_KINDS: readonly JobKind[] = [subjectExportBuildJob, subjectExportExpireJob];
