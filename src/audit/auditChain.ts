import { createHash } from 'node:crypto';
import type { AuditLogTable } from '../store/tables.ts';

/**
 * The audit trail as a hash chain (PCI DSS v4 10.3.2: audit logs protected from modification). Each
 * row written since migration 0076 carries `seq` (its place: 1, 2, 3, ... without gaps), the hash
 * of the row before it (`prev_hash`) and its own `hash`: SHA-256 over the previous hash and the
 * row's content. Changing a row breaks its own hash; deleting, inserting or moving one breaks the
 * sequence and the links around it. Rewriting the whole tail consistently is caught by comparing
 * the head with one written to the log earlier (`audit verify --head`).
 */

/** The hash "before" the first chained row. */
export const GENESIS_HASH = '0'.repeat(64);

/** What a row's hash covers: everything but its id, which the store assigns. */
export type ChainedContent = Pick<
  AuditLogTable,
  'at' | 'actor' | 'action' | 'target_type' | 'target_id' | 'details' | 'source'
> & { seq: number };

/** SHA-256 (hex) over the previous row's hash and this row's content, in one fixed encoding. */
export function chainHash(prevHash: string, row: ChainedContent): string {
  const content = JSON.stringify([
    Number(row.seq),
    Number(row.at),
    row.actor,
    row.action,
    row.target_type,
    row.target_id,
    row.details,
    row.source,
  ]);
  return createHash('sha256').update(`${prevHash}\n${content}`).digest('hex');
}

/** A stored row as the verifier reads it. */
export interface StoredAuditRow extends Omit<ChainedContent, 'seq'> {
  id: number;
  seq: number | null;
  prev_hash: string | null;
  hash: string | null;
}

/** The chain head: the last chained row (seq 0, the genesis id and GENESIS_HASH before the first). */
export interface ChainHead {
  seq: number;
  row_id: number;
  hash: string;
}

/** Where the chain began: rows with an id up to `genesis_id` predate it (`genesis_rows` of them). */
export interface ChainGenesis {
  genesis_id: number;
  genesis_rows: number;
}

export type ChainProblemKind = 'changed' | 'deleted' | 'inserted' | 'reordered';

export interface ChainProblem {
  kind: ChainProblemKind;
  /** The row named: the changed, inserted or moved one, or for a deletion the row after the gap. */
  id: number | null;
  seq: number | null;
  message: string;
}

export interface ChainReport {
  ok: boolean;
  /** Chained rows checked. */
  rows: number;
  /** Rows written before the chain began (not covered by it). */
  before_chain: number;
  /** The last chained row, as `hash@id` can be compared with a logged head. */
  head: ChainHead;
  problem: ChainProblem | null;
}

/** `hash@id`, as the head is logged and as `audit verify --head` takes it. */
export function formatHead(head: Pick<ChainHead, 'hash' | 'row_id'>): string {
  return `${head.hash}@${head.row_id}`;
}

export function parseHead(text: string): { hash: string; row_id: number } | undefined {
  const m = /^([0-9a-f]{64})@([0-9]{1,18})$/.exec(text.trim());
  return m === null ? undefined : { hash: m[1]!, row_id: Number(m[2]) };
}

/**
 * Walks the trail in id order and names the first row where the chain breaks. Takes the rows page
 * by page (each in id order, continuing the last), so that the trail is never held in memory at
 * once. `storedHead` answers the head the store keeps, once the pages are done; `logged`, a head written to the log earlier.
 */
export async function verifyChain(
  pages: AsyncIterable<readonly StoredAuditRow[]>,
  genesis: ChainGenesis,
  storedHead: () => ChainHead,
  logged?: { hash: string; row_id: number },
): Promise<ChainReport> {
  let last: { id: number; seq: number; hash: string; prev: string } = {
    id: genesis.genesis_id,
    seq: 0,
    hash: GENESIS_HASH,
    prev: GENESIS_HASH,
  };
  let rows = 0;
  let beforeChain = 0;
  let loggedSeen = logged === undefined;
  // One row of lookahead: a swap and a deletion look alike until the next row is seen.
  let pending: StoredAuditRow | undefined;
  const report = (problem: ChainProblem | null): ChainReport => ({
    ok: problem === null,
    rows,
    before_chain: beforeChain,
    head: { seq: last.seq, row_id: last.id, hash: last.hash },
    problem,
  });

  const check = (row: StoredAuditRow, next: StoredAuditRow | undefined): ChainProblem | null => {
    if (row.id <= genesis.genesis_id) {
      if (row.seq !== null || row.hash !== null)
        return problem('inserted', row, 'a chained row among the rows that predate the chain');
      beforeChain += 1;
      return null;
    }
    if (row.seq === null || row.hash === null || row.prev_hash === null)
      return problem('inserted', row, 'a row outside the chain (no seq or hash)');
    if (chainHash(row.prev_hash, { ...row, seq: row.seq }) !== row.hash)
      return problem('changed', row, 'its content no longer matches its hash');
    const expected = last.seq + 1;
    if (row.seq === expected) {
      if (row.prev_hash !== last.hash) {
        // The row is intact and in place, but chained to another hash than the row before it now
        // has: that row was changed and its hash made again.
        return last.seq === 0
          ? problem('changed', row, 'it does not follow the genesis')
          : {
              kind: 'changed',
              id: last.id,
              seq: last.seq,
              message: `row ${last.id} (seq ${last.seq}) was rewritten: row ${row.id} was chained to another hash`,
            };
      }
    } else if (row.seq > expected) {
      if (next?.seq === expected && next.prev_hash === last.hash) {
        return row.prev_hash === next.hash
          ? problem('reordered', row, `it (seq ${row.seq}) comes before row ${next.id} (seq ${next.seq})`)
          : problem(
              'inserted',
              row,
              `seq ${row.seq} where seq ${expected} was due, and the chain goes on after it`,
            );
      }
      return problem(
        'deleted',
        row,
        expected === row.seq - 1
          ? `seq ${expected} is missing before it`
          : `seq ${expected} to ${row.seq - 1} are missing before it`,
      );
    } else if (row.seq === last.seq && row.prev_hash === last.prev) {
      // Two rows claim one place: the first of them is not the one the chain goes on from.
      return {
        kind: 'inserted',
        id: last.id,
        seq: last.seq,
        message: `row ${last.id} takes the place (seq ${last.seq}) of row ${row.id}`,
      };
    } else {
      return problem('reordered', row, `seq ${row.seq} after seq ${last.seq}`);
    }
    rows += 1;
    if (logged !== undefined && row.id === logged.row_id) {
      if (row.hash !== logged.hash)
        return problem(
          'changed',
          row,
          'its hash differs from the logged head: the trail was rewritten from there',
        );
      loggedSeen = true;
    }
    last = { id: row.id, seq: row.seq, hash: row.hash, prev: row.prev_hash };
    return null;
  };

  for await (const page of pages) {
    for (const row of page) {
      if (pending !== undefined) {
        const found = check(pending, row);
        if (found !== null) return report(found);
      }
      pending = row;
    }
  }
  if (pending !== undefined) {
    const found = check(pending, undefined);
    if (found !== null) return report(found);
  }
  if (beforeChain !== genesis.genesis_rows)
    return report({
      kind: beforeChain < genesis.genesis_rows ? 'deleted' : 'inserted',
      id: null,
      seq: null,
      message: `${beforeChain} rows predate the chain where ${genesis.genesis_rows} did when it began`,
    });
  if (!loggedSeen)
    return report({
      kind: 'deleted',
      id: logged!.row_id,
      seq: null,
      message: `the logged head, row ${logged!.row_id}, is not in the chain: the trail was cut or rewritten after it`,
    });
  const stored = storedHead();
  if (last.seq !== stored.seq || last.hash !== stored.hash)
    return report({
      kind: last.seq < stored.seq ? 'deleted' : 'inserted',
      id: last.seq < stored.seq ? stored.row_id : last.id,
      seq: last.seq < stored.seq ? stored.seq : last.seq,
      message:
        last.seq < stored.seq
          ? `the chain ends at seq ${last.seq}; its head says seq ${stored.seq} (row ${stored.row_id}): the tail was deleted`
          : `the chain goes on past its head (seq ${stored.seq}) to seq ${last.seq}`,
    });
  return report(null);
}

function problem(kind: ChainProblemKind, row: StoredAuditRow, why: string): ChainProblem {
  return {
    kind,
    id: row.id,
    seq: row.seq,
    message: `row ${row.id}${row.seq === null ? '' : ` (seq ${row.seq})`}: ${why}`,
  };
}
