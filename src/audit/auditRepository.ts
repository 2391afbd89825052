import type { Kysely } from 'kysely';
import type { AuditLogTable, Database } from '../store/tables.ts';

/**
 * Queries over the audit trail (`audit_log`): insert and read, never update; and its chain head
 * (`audit_chain_head`). Takes a Kysely handle or a transaction.
 */

export type AuditRow = Omit<AuditLogTable, 'id'>;

/** Rows of one batch, fewer than SQLite's bound parameters allow in one statement. */
const INSERT_BATCH = 500;

/** Inserts the rows in their order; answers the id of the last. */
export async function insertAuditRows(db: Kysely<Database>, rows: readonly AuditRow[]): Promise<number> {
  let lastId = 0;
  for (let i = 0; i < rows.length; i += INSERT_BATCH) {
    const ids = await db
      .insertInto('audit_log')
      .values(rows.slice(i, i + INSERT_BATCH))
      .returning('id')
      .execute();
    for (const { id } of ids) lastId = Math.max(lastId, Number(id));
  }
  return lastId;
}

/**
 * The writer's turn at the chain: moves the head on by `count` places and answers the seq of the
 * last of them and the hash the first is chained to. On PostgreSQL the row lock it takes is held to
 * the commit, so writers on any number of instances chain one after the other; SQLite has one writer.
 */
export async function takeChainTurn(
  db: Kysely<Database>,
  count: number,
): Promise<{ seq: number; hash: string }> {
  const head = await db
    .updateTable('audit_chain_head')
    .set((eb) => ({ seq: eb('seq', '+', count) }))
    .where('id', '=', 1)
    .returning(['seq', 'hash'])
    .executeTakeFirstOrThrow();
  return { seq: Number(head.seq), hash: head.hash };
}

export async function setChainHead(
  db: Kysely<Database>,
  head: { row_id: number; hash: string },
): Promise<void> {
  await db.updateTable('audit_chain_head').set(head).where('id', '=', 1).execute();
}

export async function readChainHead(db: Kysely<Database>) {
  const head = await db
    .selectFrom('audit_chain_head')
    .selectAll()
    .where('id', '=', 1)
    .executeTakeFirstOrThrow();
  return {
    seq: Number(head.seq),
    row_id: Number(head.row_id),
    hash: head.hash,
    genesis_id: Number(head.genesis_id),
    genesis_rows: Number(head.genesis_rows),
  };
}

/** Rows with an id above `afterId`, in id order: a page of the chain's walk. */
export async function auditRowsAfter(db: Kysely<Database>, afterId: number, limit: number) {
  return db
    .selectFrom('audit_log')
    .select([
      'id',
      'seq',
      'prev_hash',
      'hash',
      'at',
      'actor',
      'action',
      'target_type',
      'target_id',
      'details',
      'source',
    ])
    .where('id', '>', afterId)
    .orderBy('id', 'asc')
    .limit(limit)
    .execute();
}

export interface AuditRowFilter {
  actor?: string | undefined;
  action?: string | undefined;
  targetType?: string | undefined;
  targetId?: string | undefined;
  /** Rows with an id below this one. */
  beforeId?: number | undefined;
  limit: number;
}

/** Newest first. */
export async function findAuditRows(db: Kysely<Database>, filter: AuditRowFilter) {
  let query = db.selectFrom('audit_log').selectAll();
  if (filter.actor !== undefined) query = query.where('actor', '=', filter.actor);
  if (filter.action !== undefined) query = query.where('action', '=', filter.action);
  if (filter.targetType !== undefined) query = query.where('target_type', '=', filter.targetType);
  if (filter.targetId !== undefined) query = query.where('target_id', '=', filter.targetId);
  if (filter.beforeId !== undefined) query = query.where('id', '<', filter.beforeId);
  return query.orderBy('id', 'desc').limit(filter.limit).execute();
}

/** When an actor took one of `actions` after `since`, oldest first, at most `limit` times. */
export async function actionTimes(
  db: Kysely<Database>,
  query: { actor: string; actions: readonly string[]; since: number; limit: number },
): Promise<number[]> {
  const rows = await db
    .selectFrom('audit_log')
    .select('at')
    .where('actor', '=', query.actor)
    .where('action', 'in', [...query.actions])
    .where('at', '>', query.since)
    .orderBy('at', 'asc')
    .limit(query.limit)
    .execute();
  return rows.map((row) => row.at);
}

/** An actor's rows of `actions` on one target from `since` on (inclusive), in no particular order. */
export async function actionsOnTarget(
  db: Kysely<Database>,
  query: { actor: string; targetType: string; targetId: string; actions: readonly string[]; since: number },
) {
  return db
    .selectFrom('audit_log')
    .select(['action', 'details'])
    .where('actor', '=', query.actor)
    .where('target_type', '=', query.targetType)
    .where('target_id', '=', query.targetId)
    .where('action', 'in', [...query.actions])
    .where('at', '>=', query.since)
    .execute();
}
