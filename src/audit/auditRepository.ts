import type { Kysely } from 'kysely';
import type { AuditLogTable, Database } from '../store/tables.ts';

/** Queries over the audit trail (`audit_log`): insert and read, never update. Takes a Kysely handle or a transaction. */

export type AuditRow = Omit<AuditLogTable, 'id'>;

export async function insertAuditRow(db: Kysely<Database>, row: AuditRow): Promise<void> {
  await db.insertInto('audit_log').values(row).execute();
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
