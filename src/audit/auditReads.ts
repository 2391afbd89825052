import type { Kysely } from 'kysely';
import type { Database } from '../store/tables.ts';
import { actorName, type ChangedBy } from './actor.ts';
import { listAudit, recordAudit, type AuditFilter, type AuditReader, type AuditView } from './auditTrail.ts';

/**
 * Reads of the audit trail by a person, each itself recorded (PCI DSS v4 10.2.1.3: all access to
 * audit logs): the admin API's and the console's page, `cardapply audit list` and `audit verify`.
 */

/** How the trail was read: a page of it, or its whole chain walked (`audit verify`). */
export type AuditReadVia = 'list' | 'verify';

export interface AuditRead {
  by: ChangedBy;
  via: AuditReadVia;
  /** The filter as the reader gave it: only what was set. */
  filter: Record<string, string | number | undefined>;
  /** How many rows the read answered (a page's items, or the rows the walk went through). */
  rows: number;
  at: number;
}

/**
 * PCI DSS v4 10.2.1.3 (all access to audit logs): one `audit.read` row per read, written after the
 * read, so the row tells how many rows the reader was shown, and a reader is never shown their own
 * read. A read of the reads (`action=audit.read`) is one more such row, and nothing more: writing a
 * read row is a write, never a read, so there is no loop. The service's own look-ups in the trail
 * (the reveal rate, a document's viewing window, the chain head's log line) are not a person's
 * access and are not recorded.
 */
export async function recordAuditRead(db: Kysely<Database>, read: AuditRead): Promise<void> {
  const filter = Object.fromEntries(Object.entries(read.filter).filter(([, value]) => value !== undefined));
  await recordAudit(db, {
    actor: actorName(read.by.actor),
    action: 'audit.read',
    targetType: 'audit_log',
    targetId: null,
    details: { via: read.via, filter, rows: read.rows },
    source: read.by.source,
    at: read.at,
  });
}

/** A page of the trail as `reader` may see it, and the row that records the read. */
export async function readAuditTrail(
  db: Kysely<Database>,
  filter: AuditFilter,
  reader: AuditReader,
  by: ChangedBy,
  at: number,
): Promise<{ items: AuditView[]; next_cursor: string | null }> {
  const page = await listAudit(db, filter, reader);
  await recordAuditRead(db, {
    by,
    via: 'list',
    filter: {
      actor: filter.actor,
      action: filter.action,
      target_type: filter.targetType,
      target_id: filter.targetId,
      cursor: filter.beforeId,
      limit: filter.limit,
    },
    rows: page.items.length,
    at,
  });
  return page;
}
