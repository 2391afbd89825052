import type { ServiceContext } from '../../context.ts';
import type { Store } from '../../store/connect.ts';
import {
  countUnderOldDocumentHash,
  findActiveByCertHashes,
  otherActiveHolder,
  rowsUnderOldDocumentHash,
  setDocumentHash,
} from '../repositories/applicationMaintenanceRepository.ts';
import { canonicalDocumentNumber } from '../../record/canonical.ts';
import { documentHash, legacyDocumentHashes } from '../rules/documentHash.ts';
import { isErasedPayload } from '../../record/erasure.ts';
import type { ApplicationRequest } from '../../record/schema.ts';
import { openPayload } from '../../record/sealedPayload.ts';

/**
 * Re-keying of the duplicate check's document hash: every application stored before the canonical
 * reading (`cert_hash_version` 1, migration 0006) gets the hash of its canonical document number
 * (version 2), in batches of short transactions, while the service runs.
 *
 * Like the key rotation's re-encryption it keeps no progress of its own: it selects the rows still at
 * version 1, in primary key order, so a stopped run starts again where rows are left. Each row is
 * written only if it is unchanged since it was read (same version, same ciphertext); on PostgreSQL
 * the batch's rows are locked with SKIP LOCKED, so instances working at once take different rows.
 *
 * Two active applications for one document, let through by the old hash (`C668668(9)` and
 * `C6686689`), cannot both take the canonical hash (one active application per document): the
 * second stays at version 1, is reported, and is re-keyed once one of them is final. Until no row is
 * left at version 1, submissions are also looked up under the old hashes (`findLegacyDuplicate`).
 */

export interface RekeyBatchResult {
  /** Rows whose hash changed (their number was stored in a non-canonical form). */
  rekeyed: number;
  /** Rows whose hash was already the canonical one (most): only marked. */
  unchanged: number;
  /** Rows that changed under us: left for the next pass. */
  skipped: number;
  /** Active rows whose canonical hash another active application holds: left at version 1. */
  conflicts: string[];
  /** Rows whose payload could not be decrypted (their key is missing, or they are damaged). */
  failed: string[];
  /** The last primary key looked at, where the next batch starts after; null when none was left. */
  last: string | null;
}

/** One batch: the version-1 rows after `after`, in primary key order. */
export async function rekeyBatch(
  ctx: Pick<ServiceContext, 'store' | 'keyRing'>,
  after: string,
  limit: number,
): Promise<RekeyBatchResult> {
  const { store, keyRing } = ctx;
  return store.transaction(async (trx) => {
    const rows = await rowsUnderOldDocumentHash(store, trx, after, limit);
    const result: RekeyBatchResult = {
      rekeyed: 0,
      unchanged: 0,
      skipped: 0,
      conflicts: [],
      failed: [],
      last: null,
    };
    for (const row of rows) {
      result.last = row.busi_water_no;
      let hash: string;
      try {
        const payload = openPayload(keyRing, row.busi_water_no, row.payload_enc);
        if (isErasedPayload(payload)) {
          hash = row.cert_hash; // erased: the marker stays, no document to hash
        } else {
          const { cert_type, cert_id } = payload;
          hash = documentHash(keyRing, cert_type, canonicalDocumentNumber(cert_id));
        }
      } catch {
        result.failed.push(row.busi_water_no);
        continue;
      }
      if (row.active_cert_hash !== null && row.active_cert_hash !== hash) {
        if (await otherActiveHolder(trx, hash, row.busi_water_no)) {
          result.conflicts.push(row.busi_water_no);
          continue;
        }
      }
      if (!(await setDocumentHash(store, trx, row, hash))) result.skipped++;
      else if (hash === row.cert_hash) result.unchanged++;
      else result.rekeyed++;
    }
    return result;
  });
}

export interface RekeyReport {
  rekeyed: number;
  unchanged: number;
  skipped: number;
  conflicts: string[];
  failed: string[];
  /** Rows still at version 1 after the pass (conflicts, failures, rows changed under us). */
  pending: number;
}

/** The stores (of this process) where no row is left under the old hash: no old-hash lookups needed. */
const finished = new WeakSet<Store>();

/** Whether every application of this store carries the canonical document hash. */
export function rekeyFinished(store: Store): boolean {
  return finished.has(store);
}

/** One pass over every version-1 row, batch after batch, until none is left or `shouldStop` says so. */
export async function rekeyDocuments(
  ctx: Pick<ServiceContext, 'store' | 'keyRing'>,
  options: { batchSize: number; shouldStop?: () => boolean },
): Promise<RekeyReport> {
  const report: RekeyReport = { rekeyed: 0, unchanged: 0, skipped: 0, conflicts: [], failed: [], pending: 0 };
  let after = '';
  for (;;) {
    if (options.shouldStop?.() === true) break;
    const batch = await rekeyBatch(ctx, after, options.batchSize);
    report.rekeyed += batch.rekeyed;
    report.unchanged += batch.unchanged;
    report.skipped += batch.skipped;
    report.conflicts.push(...batch.conflicts);
    report.failed.push(...batch.failed);
    if (batch.last === null) break;
    after = batch.last;
  }
  report.pending = await countLeft(ctx.store);
  return report;
}

/**
 * Counts the rows still under the old hash and records whether any is left: with none, this
 * process's submissions stop looking under the old hashes. New rows are written at version 2, so
 * once none is left, none comes back.
 */
async function countLeft(store: Store): Promise<number> {
  const pending = await countUnderOldDocumentHash(store);
  if (pending === 0) finished.add(store);
  else finished.delete(store);
  return pending;
}

/**
 * For a process that does not re-key (a cluster's other workers): counts the rows still under the
 * old hash and, once none is left, ends the old-hash lookups of its submissions, as the re-keying
 * process's own pass does. Whether none is left.
 */
export async function checkRekeyFinished(store: Store): Promise<boolean> {
  return finished.has(store) || (await countLeft(store)) === 0;
}

/**
 * An active application stored under an old (version 1) hash of this document, while the
 * re-keying has not finished: the canonical hash alone would miss it. Undefined when there is none,
 * or when the number's old forms all hash like its canonical form (the usual case).
 */
export async function findLegacyDuplicate(
  ctx: Pick<ServiceContext, 'store' | 'keyRing'>,
  application: Pick<ApplicationRequest, 'cert_type' | 'cert_id'>,
): Promise<{ busi_water_no: string; app_id: string } | undefined> {
  if (finished.has(ctx.store)) return undefined;
  const hashes = legacyDocumentHashes(ctx.keyRing, application);
  if (hashes.length === 0) return undefined;
  return findActiveByCertHashes(ctx.store.db, hashes);
}
