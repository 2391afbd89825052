import type { Kysely } from 'kysely';
import type { Database } from '../store/tables.ts';
import { verifyChain, type ChainHead, type ChainReport, type StoredAuditRow } from './auditChain.ts';
import { auditRowsAfter, readChainHead } from './auditRepository.ts';

/** Rows read per query of the walk. */
const PAGE = 5000;

/**
 * Walks the whole trail against its chain (auditChain.ts), outside any transaction, so that writers
 * go on meanwhile (SQLite's write lock is not held for the walk). The store's head is read when the
 * rows run out; rows committed meanwhile are walked too, until the head and the last row agree or
 * nothing new arrives.
 */
export async function verifyAuditTrail(
  db: Kysely<Database>,
  logged?: { hash: string; row_id: number },
): Promise<ChainReport> {
  const start = await readChainHead(db);
  let head: ChainHead = start;
  async function* pages(): AsyncGenerator<StoredAuditRow[]> {
    let afterId = 0;
    for (;;) {
      const page = await auditRowsAfter(db, afterId, PAGE);
      if (page.length > 0) {
        afterId = Number(page[page.length - 1]!.id);
        yield page.map(stored);
        if (page.length === PAGE) continue;
      }
      const before = head;
      head = await readChainHead(db);
      // Done when the head is behind the walk, or has not moved since the last look (rows the head
      // names but the walk did not find are then missing, not yet to come).
      if (head.row_id <= afterId || (page.length === 0 && head.seq === before.seq)) return;
    }
  }
  return verifyChain(pages(), start, () => head, logged);
}

function stored(row: Awaited<ReturnType<typeof auditRowsAfter>>[number]): StoredAuditRow {
  return {
    id: Number(row.id),
    seq: row.seq === null ? null : Number(row.seq),
    prev_hash: row.prev_hash,
    hash: row.hash,
    at: Number(row.at),
    actor: row.actor,
    action: row.action,
    target_type: row.target_type,
    target_id: row.target_id,
    details: row.details,
    source: row.source,
  };
}
