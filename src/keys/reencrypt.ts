import type { ServiceContext } from '../context.ts';
import { totpAad } from '../operators/totp.ts';
import { secretAad } from '../webhooks/endpoints.ts';
import type { Keys } from '../crypto/liveKeyRing.ts';
import { chunkAad } from '../documents/documentStore.ts';
import { exportChunkAad } from '../subjects/subjectExportStore.ts';
import {
  rewriteEncrypted,
  rowsUnderKeyAfter,
  type EncryptedPlace,
  type RewrittenRow,
} from './keyRepository.ts';

/**
 * Re-encryption after a key rotation: every value encrypted under an older key is decrypted and
 * encrypted again under the current key, with the same aad, in batches of short transactions.
 *
 * It keeps no progress of its own: it selects the rows whose `key_id` is an older key, in primary
 * key order, so a stopped run simply starts again where rows are left. Each row is written only if
 * its ciphertext is still the one that was read (an erasure or another instance may have changed
 * it); on PostgreSQL the batch's rows are locked with SKIP LOCKED, so instances working at once take
 * different rows. Keys listed after the current one are newer (being rolled out): never touched.
 */

/** The encrypted columns of the store, with how each value's aad is formed. */
export interface EncryptedColumn extends EncryptedPlace {
  /** Sealed bytes (`encryptBytes`) with the key id in `key_id` only, rather than a text token. */
  bytes?: true;
  aad(row: { pk: string; aad_part: string }): string;
}

export const ENCRYPTED_COLUMNS: readonly EncryptedColumn[] = [
  {
    table: 'applications',
    pk: 'busi_water_no',
    column: 'payload_enc',
    aadColumn: 'busi_water_no',
    aad: (row) => row.pk,
  },
  {
    table: 'webhook_secrets',
    pk: 'id',
    column: 'secret_enc',
    aadColumn: 'endpoint_id',
    aad: (row) => secretAad(row.aad_part, row.pk),
  },
  {
    table: 'operator_totp',
    pk: 'username',
    column: 'secret_enc',
    aadColumn: 'username',
    aad: (row) => totpAad(row.pk),
  },
  {
    table: 'document_chunks',
    bytes: true,
    pk: 'chunk_id',
    column: 'chunk_enc',
    aadColumn: 'busi_water_no',
    aad: (row) => chunkAad(row.aad_part, row.pk),
  },
  // An export waiting for its download (hours): moved like the rest, so a retired key leaves none.
  {
    table: 'subject_export_chunks',
    bytes: true,
    pk: 'chunk_id',
    column: 'chunk_enc',
    aadColumn: 'request_id',
    aad: (row) => exportChunkAad(row.pk),
  },
];

/** The keys whose rows move to the current key: those listed before it. */
export function olderKeyIds(keys: Pick<Keys, 'keyIds' | 'currentKeyId'>): string[] {
  return keys.keyIds.slice(0, keys.keyIds.indexOf(keys.currentKeyId));
}

export interface BatchResult {
  /** Rows now under the current key. */
  moved: number;
  /** Rows that changed under us (left for the next pass) or could not be decrypted. */
  skipped: number;
  failed: string[];
  /** The last primary key looked at, where the next batch starts after; null when none was left. */
  last: string | null;
}

/** One batch of one table and one older key: rows after `after`, in primary key order. */
export async function reencryptBatch(
  ctx: Pick<ServiceContext, 'store' | 'keyRing'>,
  target: EncryptedColumn,
  keyId: string,
  after: string,
  limit: number,
): Promise<BatchResult> {
  const { store, keyRing } = ctx;
  return store.transaction(async (trx) => {
    const rows = await rowsUnderKeyAfter(store, trx, target, keyId, after, limit);
    const result: BatchResult = { moved: 0, skipped: 0, failed: [], last: rows.at(-1)?.pk ?? null };
    const rewritten: RewrittenRow[] = [];
    for (const row of rows) {
      try {
        const aad = target.aad(row);
        if (target.bytes === true) {
          const sealed = keyRing.encryptBytes(keyRing.decryptBytes(keyId, row.enc as Uint8Array, aad), aad);
          rewritten.push({ ...row, rewritten: sealed.sealed, keyId: sealed.keyId });
        } else {
          const enc = keyRing.encrypt(keyRing.decrypt(row.enc as string, aad), aad);
          rewritten.push({ ...row, rewritten: enc, keyId: keyRing.keyIdOf(enc) });
        }
      } catch {
        result.failed.push(row.pk);
      }
    }
    result.moved = await rewriteEncrypted(store, trx, target, rewritten);
    result.skipped = rewritten.length - result.moved;
    return result;
  });
}

export interface ReencryptReport {
  /** Rows moved, per table. */
  moved: Record<string, number>;
  skipped: number;
  /** Primary keys of rows that could not be decrypted (their key is missing, or they are damaged). */
  failed: string[];
}

/**
 * One pass over every older key of every encrypted column, batch after batch, until no row is
 * left behind the current key or `shouldStop` says so.
 */
export async function reencryptAll(
  ctx: Pick<ServiceContext, 'store' | 'keyRing'>,
  options: {
    batchSize: number;
    shouldStop?: () => boolean;
    onBatch?: (table: string, result: BatchResult) => void;
  },
): Promise<ReencryptReport> {
  const report: ReencryptReport = { moved: {}, skipped: 0, failed: [] };
  // Read once per pass: a rotation during the pass is seen by the next one.
  const currentKeyId = ctx.keyRing.currentKeyId;
  for (const target of ENCRYPTED_COLUMNS) {
    report.moved[target.table] = 0;
    for (const keyId of olderKeyIds(ctx.keyRing)) {
      if (keyId === currentKeyId) continue;
      let after = '';
      for (;;) {
        if (options.shouldStop?.() === true) return report;
        const batch = await reencryptBatch(ctx, target, keyId, after, options.batchSize);
        report.moved[target.table]! += batch.moved;
        report.skipped += batch.skipped;
        report.failed.push(...batch.failed);
        options.onBatch?.(target.table, batch);
        if (batch.last === null) break;
        after = batch.last;
      }
    }
  }
  return report;
}
