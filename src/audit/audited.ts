import type { Transaction } from 'kysely';
import type { ServiceContext } from '../context.ts';
import type { Store } from '../store/connect.ts';
import type { Database } from '../store/tables.ts';
import { actorName, type ChangedBy } from './actor.ts';
import { recordAudit, type AuditAction, type AuditTargetType } from './auditTrail.ts';

/**
 * The one way a change made by someone (an operator over the admin API, the CLI's user) reaches
 * the store together with its audit row (PCI DSS v4 10.2): `audited` runs the domain operation and
 * writes exactly one entry, in one transaction, so there is no change without its entry and no
 * entry for a change that did not happen. The operation runs on a context whose store is that
 * transaction (its own transactions join it), so domain functions need not know about auditing.
 *
 * CLI commands and admin routes call the same audited function; a test enumerates both and
 * checks that each writes one row.
 */
export interface AuditedChange<T> {
  action: AuditAction;
  targetType: AuditTargetType;
  /** The target, known before (an id given) or from the result (an id made). */
  targetId: string | ((result: T) => string);
  details?: (result: T) => Record<string, unknown> | null;
  /**
   * false: the operation commits on its own and the entry follows at once (never one for a change
   * that failed). For operations that wait on the network (a webhook URL's DNS check), which must
   * not hold the store's write lock meanwhile.
   */
  atomic?: boolean;
}

/** A store whose every use is the given transaction: nested transactions join it. */
function storeIn(store: Store, trx: Transaction<Database>): Store {
  return {
    ...store,
    db: trx,
    transaction: (work) => work(trx),
  };
}

export async function audited<T>(
  ctx: ServiceContext,
  by: ChangedBy,
  work: (ctx: ServiceContext) => Promise<T>,
  change: AuditedChange<NoInfer<T>>,
): Promise<T> {
  const record = (db: Transaction<Database> | Store['db'], result: T) =>
    recordAudit(db, {
      actor: actorName(by.actor),
      action: change.action,
      targetType: change.targetType,
      targetId: typeof change.targetId === 'string' ? change.targetId : change.targetId(result),
      details: change.details?.(result) ?? null,
      source: by.source,
      at: ctx.now(),
    });
  if (change.atomic === false) {
    const result = await work(ctx);
    await record(ctx.store.db, result);
    return result;
  }
  return ctx.store.transaction(async (trx) => {
    const result = await work({ ...ctx, store: storeIn(ctx.store, trx) });
    await record(trx, result);
    return result;
  });
}
