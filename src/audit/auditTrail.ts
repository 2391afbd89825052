import type { Kysely } from 'kysely';
import { ACTING_ROLE, hasRole, type Role } from '../access/roles.ts';
import { SENSITIVE_FIELDS } from '../redaction.ts';
import type { Database } from '../store/tables.ts';
import { chainHash } from './auditChain.ts';
import {
  findAuditRows,
  insertAuditRows,
  setChainHead,
  takeChainTurn,
  type AuditRow,
} from './auditRepository.ts';

/**
 * The audit trail: who did what, to what, when and from where. Append-only: this module only
 * inserts and reads (and the store's triggers refuse UPDATE and DELETE). Write the entry in the
 * same transaction as the change it records, so there is no change without its entry.
 *
 * Never an identity value in it: `details` says which field or state, not what it holds.
 */

/** Every action the trail records; the console has a label for each (test/console/console.http.test.ts). */
export const AUDIT_ACTIONS = [
  'application.transition',
  'application.reveal',
  'application.erase',
  'application.claim',
  'application.release',
  'application.reassign',
  'application.review_open',
  'application.approval_request',
  'application.restrict',
  'key.rotate',
  'key.retire',
  'key.reencrypt',
  'operator.login',
  'operator.login_failed',
  'operator.logout',
  'operator.create',
  'operator.disable',
  'operator.enable',
  'operator.role',
  'operator.password',
  'operator.lockout',
  'operator.mfa_enrol_start',
  'operator.mfa_enrol',
  'operator.mfa_reset',
  'operator.compliance',
  'app.create',
  'app.disable',
  'app.enable',
  'app.secret_rotate',
  'app.secret_revoke',
  'app.token_revoke',
  'app.update',
  'app.risk_level',
  'webhook.create',
  'webhook.secret_rotate',
  'webhook.enable',
  'webhook.disable',
  'webhook.delete',
  'webhook.redeliver',
  'retention.run',
  'webhook.auto_disable',
  'screening.import',
  'screening.hit',
  'screening.pep_match',
  'screening.clear',
  'screening.confirm_clear',
  'screening.reject',
  'audit.read',
  'subject_request.export_download',
  'subject_request.start',
  'subject_request.end',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** Every kind of thing an entry is about; labelled in the console as the actions are. */
export const AUDIT_TARGET_TYPES = [
  'application',
  'operator',
  'app',
  'key',
  'webhook_endpoint',
  'event',
  'retention',
  'screening_list',
  'audit_log',
  'subject_request',
] as const;
export type AuditTargetType = (typeof AUDIT_TARGET_TYPES)[number];

export interface AuditEntry {
  actor: string;
  action: AuditAction;
  targetType: AuditTargetType | null;
  targetId: string | null;
  details?: Record<string, unknown> | null;
  source: string;
  at: number;
}

export interface AuditView {
  id: number;
  at: number;
  actor: string;
  action: string;
  target_type: string | null;
  target_id: string | null;
  details: Record<string, unknown> | null;
  source: string;
}

const IDENTITY_KEYS: ReadonlySet<string> = new Set(SENSITIVE_FIELDS);

/** A details object must not carry identity fields; a programming error, caught before it is stored. */
function assertNoIdentity(value: unknown): void {
  if (typeof value !== 'object' || value === null) return;
  for (const [key, inner] of Object.entries(value)) {
    if (IDENTITY_KEYS.has(key)) throw new Error(`audit: details must not carry the identity field ${key}`);
    assertNoIdentity(inner);
  }
}

/** The row of an entry, its details checked for identity fields; not yet chained. */
function auditRow(entry: AuditEntry): Omit<AuditRow, 'seq' | 'prev_hash' | 'hash'> {
  const details = entry.details ?? null;
  assertNoIdentity(details);
  return {
    at: entry.at,
    actor: entry.actor,
    action: entry.action,
    target_type: entry.targetType,
    target_id: entry.targetId,
    details: details === null ? null : JSON.stringify(details),
    source: entry.source,
  };
}

/**
 * The audit trail's one writer: every audit row goes through here, in the transaction of the change
 * it records (`db` is that transaction). `audited()` (audited.ts) wraps a domain operation with it;
 * changeState.ts and the operations that write their own rows call it directly. A test
 * (test/audit/oneWriter.test.ts) holds that nothing else inserts into audit_log.
 */
export async function recordAudit(db: Kysely<Database>, entry: AuditEntry): Promise<void> {
  await recordAudits(db, [entry]);
}

/**
 * Entries chained in their order, in one turn at the chain (auditChain.ts): the head is moved on
 * first, which on PostgreSQL holds every other writer until this transaction ends, then the rows
 * and the head's new hash. Outside a transaction it opens one, so that no row is left unchained.
 */
export async function recordAudits(db: Kysely<Database>, entries: readonly AuditEntry[]): Promise<void> {
  if (entries.length === 0) return;
  const rows = entries.map(auditRow);
  const write = async (trx: Kysely<Database>) => {
    const turn = await takeChainTurn(trx, rows.length);
    let seq = turn.seq - rows.length;
    let prev = turn.hash;
    const chained: AuditRow[] = rows.map((row) => {
      seq += 1;
      const hash = chainHash(prev, { ...row, seq });
      const link = { ...row, seq, prev_hash: prev, hash };
      prev = hash;
      return link;
    });
    const lastId = await insertAuditRows(trx, chained);
    await setChainHead(trx, { row_id: lastId, hash: prev });
  };
  if (db.isTransaction) await write(db);
  else await db.transaction().execute(write);
}

export interface AuditFilter {
  actor?: string | undefined;
  action?: string | undefined;
  targetType?: string | undefined;
  targetId?: string | undefined;
  /** Entries with an id below this one: the cursor of the previous page. */
  beforeId?: number | undefined;
  limit: number;
}

/**
 * Details a viewer is not shown, by action: free text an operator wrote while judging an applicant.
 * A screening hit's clearing note may quote the listed person, whose name is near enough the
 * applicant's (docs/SCREENING.md); a viewer sees neither masked name in the clear.
 */
const WITHHELD_FROM_VIEWERS: Partial<Record<AuditAction, readonly string[]>> = {
  'screening.clear': ['note'],
  // A reveal's own words for why (purpose `other`) are free text about the applicant's case; a
  // viewer, who may not reveal, sees the purpose's code only.
  'application.reveal': ['purpose_text'],
  'application.review_open': ['purpose_text'],
};

/** Who reads the trail: an operator of a role, or the host's own `cardapply audit` (everything). */
export type AuditReader = { role: Role } | 'host';

function detailsFor(
  reader: AuditReader,
  action: string,
  details: Record<string, unknown> | null,
): Record<string, unknown> | null {
  const withheld = WITHHELD_FROM_VIEWERS[action as AuditAction];
  if (details === null || withheld === undefined || reader === 'host' || hasRole(reader.role, ACTING_ROLE))
    return details;
  return Object.fromEntries(Object.entries(details).filter(([key]) => !withheld.includes(key)));
}

/**
 * Newest first; `next_cursor` is the id to continue below, or null at the end. Read as `reader`
 * may see it: by default as the least of the roles does.
 */
export async function listAudit(
  db: Kysely<Database>,
  filter: AuditFilter,
  reader: AuditReader = { role: 'viewer' },
): Promise<{ items: AuditView[]; next_cursor: string | null }> {
  const rows = await findAuditRows(db, { ...filter, limit: filter.limit + 1 });
  const page = rows.slice(0, filter.limit);
  const items = page.map((row) => ({
    id: Number(row.id),
    at: Math.floor(row.at / 1000),
    actor: row.actor,
    action: row.action,
    target_type: row.target_type,
    target_id: row.target_id,
    details: detailsFor(
      reader,
      row.action,
      row.details === null ? null : (JSON.parse(row.details) as Record<string, unknown>),
    ),
    source: row.source,
  }));
  const last = items[items.length - 1];
  return { items, next_cursor: rows.length > filter.limit && last !== undefined ? String(last.id) : null };
}
