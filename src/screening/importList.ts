import { createHash, randomUUID } from 'node:crypto';
import { recordAudit } from '../audit/auditTrail.ts';
import type { ServiceContext } from '../context.ts';
import { ServiceError } from '../errors/serviceError.ts';
import { enqueueJobs } from '../jobs/jobRepository.ts';
import type { ListEntry, ListHeader, ListName } from './listEntry.ts';
import { readList } from './readList.ts';
import {
  completeListVersion,
  insertEntries,
  insertListVersion,
  versionInForceOf,
  type ListVersion,
  type ListVersionRow,
} from './listRepository.ts';
import { entryChanges, entryDiffHash } from './importChanges.ts';
import { RESCREEN_KIND, rescreenJob } from './rescreenJob.ts';
import { ListFormatError } from './xmlRecords.ts';

/** Entries written per statement. */
const BATCH = 200;

/**
 * Imports a list file as a new version of its list, in one transaction: the version with its
 * counts, its entries, the audit entry, and the re-screen of every application (a job), so that a
 * version is in force exactly when its re-screen is queued. The file is streamed, never held whole.
 * The version records what changed against the one it replaces (importChanges.ts).
 */
export async function importList(
  ctx: ServiceContext,
  request: {
    list: ListName;
    source: AsyncIterable<string | Uint8Array>;
    actor: string;
    origin: string;
  },
): Promise<ListVersion> {
  const hash = createHash('sha256');
  async function* hashed() {
    for await (const chunk of request.source) {
      hash.update(chunk);
      yield chunk;
    }
  }
  const versionId = `${request.list}_${randomUUID()}`;
  const header: ListHeader = { publishedAt: null };
  return ctx.store.transaction(async (trx) => {
    const now = ctx.now();
    const counts = { entries: 0, names: 0, documents: 0 };
    const previousId = await versionInForceOf(trx, request.list);
    const version: ListVersionRow = {
      version_id: versionId,
      list: request.list,
      ...counts,
      sha256: '',
      published_at: null,
      imported_at: now,
      imported_by: request.actor,
    };
    await insertListVersion(trx, version);
    let batch: ListEntry[] = [];
    try {
      for await (const entry of readList(request.list, hashed(), header)) {
        counts.entries++;
        counts.names += entry.names.length;
        counts.documents += entry.documents.length;
        batch.push(entry);
        if (batch.length === BATCH) {
          await insertEntries(trx, versionId, batch, entryDiffHash);
          batch = [];
        }
      }
    } catch (error) {
      if (!(error instanceof ListFormatError)) throw error;
      throw new ServiceError('screeningListInvalid', {
        params: { list: request.list, problem: error.message.slice(0, 200) },
      });
    }
    await insertEntries(trx, versionId, batch, entryDiffHash);
    const changes = await entryChanges(trx, versionId, previousId, counts.entries);
    const done: ListVersion = {
      ...version,
      ...counts,
      sha256: hash.digest('hex'),
      published_at: header.publishedAt,
      changes,
      rescreen: null,
    };
    await completeListVersion(trx, versionId, {
      ...counts,
      sha256: done.sha256,
      published_at: done.published_at,
      changes,
    });
    await recordAudit(trx, {
      actor: request.actor,
      action: 'screening.import',
      targetType: 'screening_list',
      targetId: versionId,
      details: {
        list: request.list,
        ...counts,
        sha256: done.sha256,
        published_at: done.published_at,
        added: changes.added,
        removed: changes.removed,
        changed: changes.changed,
      },
      source: request.origin,
      at: now,
    });
    await enqueueJobs(trx, [rescreenJob(versionId)], now);
    return done;
  });
}

export { RESCREEN_KIND };
