import type { ServiceContext } from '../context.ts';
import { PARTNER_SOURCE } from '../applications/commands/partnerTransitions.ts';
import { actorName } from '../audit/actor.ts';
import { recordAudit } from '../audit/auditTrail.ts';
import type { ErrorName } from '../errors/catalogue.ts';
import { ServiceError } from '../errors/serviceError.ts';
import type { Partner } from '../partners/credentials.ts';
import type { Database } from '../store/tables.ts';
import type { Kysely } from 'kysely';
import {
  deleteExportChunks,
  findExport,
  markExportFetched,
  type SubjectExportRow,
} from './subjectExportRepository.ts';
import { readExport } from './subjectExportStore.ts';
import { findSubjectRequest } from './subjectRequestRepository.ts';

/**
 * The one delivery of an access or portability export to the partner that forwarded the request
 * (docs/PRIVACY.md). The sealed copy is read and checked, then, in one transaction, marked fetched,
 * its chunks deleted and the fetch audited: a second download finds nothing. Every refusal is
 * audited too (`subject_request.export_download` with its `outcome`), so the trail shows every
 * attempt on a person's export, by whom (the app) and when.
 */

export interface DeliveredExport {
  /** The export's JSON text, as built. */
  body: Buffer;
  /** A file name for Content-Disposition: the request id, never a person's name. */
  fileName: string;
  sha256: string;
}

type Outcome = 'delivered' | 'not_found' | 'not_ready' | 'already_delivered' | 'expired';

const REFUSALS: Record<Exclude<Outcome, 'delivered'>, ErrorName> = {
  not_found: 'subjectRequestNotFound',
  not_ready: 'subjectExportNotReady',
  already_delivered: 'subjectExportDelivered',
  expired: 'subjectExportExpired',
};

/** Why an export that exists cannot be delivered at `now`, or null when it can. */
function refusalOf(made: SubjectExportRow, now: number): Exclude<Outcome, 'delivered'> | null {
  if (made.fetched_at !== null) return 'already_delivered';
  if (made.erased_at !== null || Number(made.expires_at) <= now) return 'expired';
  return null;
}

export async function downloadSubjectExport(
  ctx: ServiceContext,
  partner: Partner,
  requestId: string,
): Promise<DeliveredExport> {
  const audit = (db: Kysely<Database>, outcome: Outcome) =>
    recordAudit(db, {
      actor: actorName({ kind: 'caller', id: partner.appId }),
      action: 'subject_request.export_download',
      targetType: 'subject_request',
      targetId: requestId,
      details: { outcome },
      source: PARTNER_SOURCE,
      at: ctx.now(),
    });
  const refuse = async (outcome: Exclude<Outcome, 'delivered'>): Promise<never> => {
    await audit(ctx.store.db, outcome);
    throw new ServiceError(REFUSALS[outcome]);
  };

  const request = await findSubjectRequest(ctx.store.db, partner.appId, requestId);
  if (request === undefined) return refuse('not_found');
  const made = await findExport(ctx.store.db, requestId);
  if (made === undefined) return refuse('not_ready');
  const refusal = refusalOf(made, ctx.now());
  if (refusal !== null) return refuse(refusal);

  /** Why it cannot be delivered any more, read again now; null while it still can. */
  const refusalNow = async () => refusalOf((await findExport(ctx.store.db, requestId)) ?? made, ctx.now());
  let body: Buffer;
  try {
    // Read outside the transaction: a large export does not hold the store's write lock meanwhile.
    body = await readExport(ctx, requestId, {
      byteSize: Number(made.byte_size),
      sha256: made.sha256,
      chunkCount: Number(made.chunk_count),
    });
  } catch (error) {
    // Another download (or the expiry) deleted the chunks while they were read: refused as such.
    const refusal = await refusalNow();
    if (refusal !== null) return refuse(refusal);
    throw error;
  }
  const delivered = await ctx.store.transaction(async (trx) => {
    if (!(await markExportFetched(trx, requestId, ctx.now()))) return false;
    await deleteExportChunks(trx, requestId);
    await audit(trx, 'delivered');
    return true;
  });
  // Another download took it first, or its time ran out meanwhile.
  if (!delivered) return refuse((await refusalNow()) ?? 'expired');
  return { body, fileName: `subject-export-${requestId}.json`, sha256: made.sha256 };
}
