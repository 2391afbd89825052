import type {
  SubjectRequestKind,
  SubjectRequestStatus,
  SubjectRequestView,
} from '../events/subjectRequestPayload.ts';
import type { ServiceContext } from '../context.ts';
import { pooledRandomBytes } from '../crypto/randomPool.ts';
import { ServiceError } from '../errors/serviceError.ts';
import type { Partner } from '../partners/credentials.ts';
import { resolveSerial, type ApplicationReference } from '../applications/rules/applicationReference.ts';
import { findCertHashOf, findSerialsOfPerson } from '../record/personRepository.ts';
import { ERASED_CERT_HASH } from '../record/erasure.ts';
import { enqueueJobs } from '../jobs/jobRepository.ts';
import { isUniqueViolation } from '../store/errors.ts';
import { exportsOf } from './subjectExportRepository.ts';
import { EXPORTING_KINDS, subjectRequestView } from './subjectRequestView.ts';
import { subjectExportJob } from './subjectExportJob.ts';
import {
  findOpenRequest,
  findSubjectRequest,
  insertSubjectRequest,
  listSubjectRequests,
  type SubjectRequestRow,
} from './subjectRequestRepository.ts';

/**
 * An applicant's requests through the partner (PIPL articles 45 to 47; docs/PRIVACY.md): access, a
 * portable copy, correction, deletion. The partner names one application; the request covers every
 * application of that person at that partner, matched by the identity document's keyed hash as the
 * duplicate check matches them. It is due `SUBJECT_REQUEST_DAYS` after it is received.
 */

// The request's view is the events' own shape too (a `subject_request.*` event carries it).
export {
  RequestId,
  SUBJECT_REQUEST_KINDS,
  SUBJECT_REQUEST_STATUSES,
  SubjectRequestView,
  type SubjectRequestKind,
  type SubjectRequestStatus,
} from '../events/subjectRequestPayload.ts';

const DAY_MS = 86_400_000;

/** `sr_` and 32 hexadecimal digits: the time in milliseconds (12 digits), then 80 random bits; in the order of time. */
function newRequestId(at: number): string {
  return `sr_${Math.max(0, Math.floor(at)).toString(16).padStart(12, '0')}${pooledRandomBytes(10).toString('hex')}`;
}

export interface NewSubjectRequest extends ApplicationReference {
  kind: SubjectRequestKind;
}

/** Receives a request: one open request of a kind per person at a time (409 naming it). */
export async function createSubjectRequest(
  ctx: ServiceContext,
  partner: Partner,
  request: NewSubjectRequest,
): Promise<SubjectRequestView> {
  const serial = await resolveSerial(ctx, partner, request);
  const certHash = await findCertHashOf(ctx.store.db, partner.appId, serial);
  if (certHash === undefined) throw new ServiceError('applicationNotFound');
  // An erased application no longer tells whose it was: the request covers it alone.
  const serials =
    certHash === ERASED_CERT_HASH
      ? [serial]
      : await findSerialsOfPerson(ctx.store.db, partner.appId, certHash);
  const personKey = certHash === ERASED_CERT_HASH ? `${ERASED_CERT_HASH}:${serial}` : certHash;
  const open = async () => {
    const found = await findOpenRequest(ctx.store.db, {
      appId: partner.appId,
      certHash: personKey,
      kind: request.kind,
    });
    if (found !== undefined)
      throw new ServiceError('subjectRequestOpen', {
        params: { kind: request.kind },
        data: { request_id: found.request_id },
      });
  };
  await open();
  const now = ctx.now();
  const row: SubjectRequestRow = {
    request_id: newRequestId(now),
    app_id: partner.appId,
    kind: request.kind,
    status: 'received',
    busi_water_no: serial,
    cert_hash: personKey,
    serials: JSON.stringify(serials),
    reason_code: null,
    reason: null,
    restricted_until: null,
    due_at: now + ctx.config.subjectRequestDays * DAY_MS,
    created_at: now,
    updated_at: now,
    ended_at: null,
  };
  try {
    // An access or portability request queues its export's job with it: the call waits for nothing more.
    await ctx.store.transaction(async (trx) => {
      await insertSubjectRequest(trx, row);
      if (EXPORTING_KINDS.includes(row.kind)) await enqueueJobs(trx, [subjectExportJob(row.request_id)], now);
    });
  } catch (error) {
    // Two at once: the unique index on the open requests let one in.
    if (isUniqueViolation(error)) await open();
    throw error;
  }
  return subjectRequestView(row, undefined, now);
}

export async function querySubjectRequest(
  ctx: ServiceContext,
  partner: Partner,
  requestId: string,
): Promise<SubjectRequestView> {
  const row = await findSubjectRequest(ctx.store.db, partner.appId, requestId);
  if (row === undefined) throw new ServiceError('subjectRequestNotFound');
  const made = await exportsOf(ctx.store.db, [row.request_id]);
  return subjectRequestView(row, made.get(row.request_id), ctx.now());
}

export const SUBJECT_LIST_LIMIT = 100;

export async function listPartnerSubjectRequests(
  ctx: ServiceContext,
  partner: Partner,
  query: {
    status?: SubjectRequestStatus | undefined;
    kind?: SubjectRequestKind | undefined;
    cursor?: string | undefined;
    limit?: number | undefined;
  },
): Promise<{ items: SubjectRequestView[]; next_cursor: string | null }> {
  const limit = query.limit ?? 20;
  const rows = await listSubjectRequests(ctx.store.db, {
    appId: partner.appId,
    status: query.status,
    kind: query.kind,
    beforeId: query.cursor,
    limit: limit + 1,
  });
  const page = rows.slice(0, limit);
  const made = await exportsOf(
    ctx.store.db,
    page.map((row) => row.request_id),
  );
  const now = ctx.now();
  const items = page.map((row) => subjectRequestView(row, made.get(row.request_id), now));
  const last = items[items.length - 1];
  return { items, next_cursor: rows.length > limit && last !== undefined ? last.request_id : null };
}
