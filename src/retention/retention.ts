import type { Kysely, Transaction } from 'kysely';
import { recordAudit } from '../audit/auditTrail.ts';
import { erasedPayload } from '../record/erasure.ts';
import {
  erasableAfter,
  eraseIfEligible,
  eraseNow,
  restrictedDue,
  type ErasableRow,
} from '../applications/repositories/applicationMaintenanceRepository.ts';
import type { ServiceContext } from '../context.ts';
import { eraseDocuments } from '../documents/documentRepository.ts';
import { deleteContacts } from '../risk/riskRepository.ts';
import type { Database } from '../store/tables.ts';
import { sealTombstone } from '../record/sealedPayload.ts';

/**
 * Retention: the identity data of an application that has been in a final state (REJECTED,
 * CANCELLED, DELIVERED) for longer than the retention period is erased.
 *
 * Erasing replaces the encrypted payload (the whole application as submitted) with an encrypted
 * tombstone `{"erased": true, "erased_at": ...}` and the keyed hash of its identity document with
 * `erased`. The record stays: serial, app, status and reason, card type, the masked card number,
 * times, its state history, its events and its audit trail, none of which holds identity data.
 * The keyed hash of the card number stays too: it keeps that number from ever being issued again.
 *
 * Each erasure is one conditional update (still final, still not erased, still old enough) with
 * its audit entry in the same transaction, so instances running the job at once erase and audit
 * each application exactly once. Afterwards the store's copies of the old values go too: SQLite
 * (secure_delete on) has its write-ahead log checkpointed and truncated, PostgreSQL's table is
 * vacuumed so that the old row versions are removed.
 */

const DAY_MS = 86_400_000;
/** At most this many serials are listed in a report; the counts are always complete. */
const LISTED = 1000;

export interface RetentionOptions {
  days: number;
  dryRun: boolean;
  /** For the audit trail: `retention job <host>`, `cli <user>`. */
  source: string;
  batchSize?: number;
  shouldStop?: () => boolean;
  /** After each batch: how many applications it erased (or, in a dry run, found). */
  onBatch?: (count: number) => void;
}

export interface RetentionReport {
  dry_run: boolean;
  retention_days: number;
  /** Applications final before this time (Unix seconds) are eligible. */
  final_before: number;
  /** Eligible (dry run) or erased applications. */
  count: number;
  /** Their serials (at most 1000). */
  serials: string[];
  /**
   * Whether the store's copies of the old values are gone (WAL truncated, table vacuumed); false
   * when that failed (retried after the next erasure), null when nothing was erased.
   */
  store_compacted: boolean | null;
  /**
   * Of `count`, the applications a deletion request restricted under record keeping whose date came
   * (docs/PRIVACY.md): erased whatever the retention period.
   */
  restricted: number;
}

export async function runRetention(ctx: ServiceContext, options: RetentionOptions): Promise<RetentionReport> {
  const batchSize = options.batchSize ?? 200;
  const cutoff = ctx.now() - options.days * DAY_MS;
  const report: RetentionReport = {
    dry_run: options.dryRun,
    retention_days: options.days,
    final_before: Math.floor(cutoff / 1000),
    count: 0,
    serials: [],
    store_compacted: null,
    restricted: 0,
  };
  const note = (serial: string) => {
    report.count++;
    if (report.serials.length < LISTED) report.serials.push(serial);
  };

  let after: { updatedAt: number; busiWaterNo: string } | undefined;
  for (;;) {
    if (options.shouldStop?.() === true) break;
    let batch: ErasableRow[];
    const before = report.count;
    if (options.dryRun) {
      batch = await erasableAfter(ctx.store, ctx.store.db, cutoff, after, batchSize, false);
      for (const row of batch) note(row.busi_water_no);
    } else {
      batch = await ctx.store.transaction(async (trx) => {
        const rows = await erasableAfter(ctx.store, trx, cutoff, after, batchSize, true);
        for (const row of rows) {
          if (await erase(ctx, trx, row, cutoff, options)) note(row.busi_water_no);
        }
        return rows;
      });
    }
    options.onBatch?.(report.count - before);
    const last = batch[batch.length - 1];
    if (last === undefined || batch.length < batchSize) break;
    after = { updatedAt: last.updated_at, busiWaterNo: last.busi_water_no };
  }

  const restricted = await eraseRestricted(ctx, options);
  for (const serial of restricted.serials) note(serial);
  report.count += restricted.count - restricted.serials.length;
  report.restricted = restricted.count;

  if (!options.dryRun && report.count > 0) report.store_compacted = await dropOldVersions(ctx);
  if (!options.dryRun) ctx.metrics.erasures.inc(report.count);
  return report;
}

async function erase(
  ctx: ServiceContext,
  trx: Transaction<Database>,
  row: ErasableRow,
  cutoff: number,
  options: RetentionOptions,
): Promise<boolean> {
  const now = ctx.now();
  const tombstone = sealTombstone(ctx.keyRing, row.busi_water_no, erasedPayload(now));
  const erased = await eraseIfEligible(ctx.store, trx, {
    busiWaterNo: row.busi_water_no,
    tombstone,
    keyId: ctx.keyRing.keyIdOf(tombstone),
    erasedAt: now,
    cutoff,
  });
  if (!erased) return false;
  await eraseTheRest(trx, row.busi_water_no, {
    actor: 'system',
    source: options.source,
    at: now,
    details: {
      status: row.status,
      final_at: Math.floor(row.updated_at / 1000),
      retention_days: options.days,
    },
  });
  return true;
}

/** What goes with an application's payload: its documents and contacts, and the audit entry. */
async function eraseTheRest(
  trx: Kysely<Database>,
  busiWaterNo: string,
  entry: { actor: string; source: string; at: number; details: Record<string, unknown> },
): Promise<void> {
  // The kept documents are identity data too (PIPL: sensitive personal information).
  await eraseDocuments(trx, busiWaterNo);
  // Keyed hashes of its mobile number and e-mail: nothing may link it to another applicant now.
  await deleteContacts(trx, busiWaterNo);
  await recordAudit(trx, {
    actor: entry.actor,
    action: 'application.erase',
    targetType: 'application',
    targetId: busiWaterNo,
    details: entry.details,
    source: entry.source,
    at: entry.at,
  });
}

/**
 * Erases one application now, whatever its state or age, inside the caller's transaction, exactly
 * as retention erases (payload, document hash, documents, contacts, one audit entry): a deletion
 * request with no record-keeping duty (docs/PRIVACY.md). False when it was erased already. The
 * store's old copies go at the next `compactAfterErasure`.
 */
export async function eraseApplicationNow(
  ctx: ServiceContext,
  trx: Kysely<Database>,
  busiWaterNo: string,
  entry: { actor: string; source: string; details: Record<string, unknown> },
): Promise<boolean> {
  const now = ctx.now();
  const tombstone = sealTombstone(ctx.keyRing, busiWaterNo, erasedPayload(now));
  const erased = await eraseNow(ctx.store, trx, {
    busiWaterNo,
    tombstone,
    keyId: ctx.keyRing.keyIdOf(tombstone),
    erasedAt: now,
  });
  if (!erased) return false;
  await eraseTheRest(trx, busiWaterNo, { ...entry, at: now });
  ctx.metrics.erasures.inc(1);
  return true;
}

/**
 * The restricted applications whose record keeping has ended (`restricted_until` passed): erased
 * by the retention run with nobody acting, whether or not RETENTION_DAYS is set. Each in its own
 * conditional update, audited once, as the rest of retention.
 */
export async function eraseRestricted(
  ctx: ServiceContext,
  options: Pick<RetentionOptions, 'dryRun' | 'source' | 'batchSize' | 'shouldStop' | 'onBatch'>,
): Promise<{ count: number; serials: string[] }> {
  const batchSize = options.batchSize ?? 200;
  const done = { count: 0, serials: [] as string[] };
  const now = ctx.now();
  if (options.dryRun) {
    const rows = await restrictedDue(ctx.store, ctx.store.db, now, LISTED, false);
    done.count = rows.length;
    done.serials = rows.map((row) => row.busi_water_no);
    options.onBatch?.(rows.length);
    return done;
  }
  for (;;) {
    if (options.shouldStop?.() === true) break;
    const batch = await ctx.store.transaction(async (trx) => {
      const rows = await restrictedDue(ctx.store, trx, now, batchSize, true);
      let erased = 0;
      for (const row of rows) {
        const tombstone = sealTombstone(ctx.keyRing, row.busi_water_no, erasedPayload(now));
        const ok = await eraseNow(ctx.store, trx, {
          busiWaterNo: row.busi_water_no,
          tombstone,
          keyId: ctx.keyRing.keyIdOf(tombstone),
          erasedAt: now,
          restrictedBy: now,
        });
        if (!ok) continue;
        await eraseTheRest(trx, row.busi_water_no, {
          actor: 'system',
          source: options.source,
          at: now,
          details: { status: row.status, restricted: true, record_keeping_ended: Math.floor(now / 1000) },
        });
        erased++;
        done.count++;
        if (done.serials.length < LISTED) done.serials.push(row.busi_water_no);
      }
      return { rows: rows.length, erased };
    });
    options.onBatch?.(batch.erased);
    if (batch.rows < batchSize) break;
  }
  return done;
}

/** After erasures outside a retention run (a deletion request): the store's old copies go too. */
export async function compactAfterErasure(ctx: ServiceContext): Promise<boolean> {
  return dropOldVersions(ctx);
}

/**
 * Removes the store's own copies of what was just overwritten. SQLite zeroes freed space itself
 * (secure_delete); the pages with the old values remain in the write-ahead log until a checkpoint
 * copies the new ones over and the log is truncated. PostgreSQL keeps old row versions until a
 * VACUUM removes them.
 */
async function dropOldVersions(ctx: ServiceContext): Promise<boolean> {
  const applications = await ctx.store.dropOldVersions('applications');
  const chunks = await ctx.store.dropOldVersions('document_chunks');
  return applications && chunks;
}
