import { recordAudit } from '../audit/auditTrail.ts';
import { actorName, SYSTEM } from '../audit/actor.ts';
import type { ServiceContext } from '../context.ts';

/**
 * An endpoint that keeps failing is disabled by the service: when its attempts have failed with no
 * success in between for five days, it stops receiving (events meanwhile are not queued for it), an
 * audit row says so and a metric counts it. Its owner sees `disabled_reason: failing` and enables
 * it again when it is fixed. Every attempt reports here after it is recorded.
 */

export const AUTO_DISABLE_AFTER_MS = 5 * 86_400_000;

export async function recordEndpointHealth(
  ctx: ServiceContext,
  endpointId: string,
  ok: boolean,
  now: number,
): Promise<'disabled' | undefined> {
  if (ok) {
    await ctx.store.db
      .updateTable('webhook_endpoints')
      .set({ failing_since: null })
      .where('id', '=', endpointId)
      .where('failing_since', 'is not', null)
      .execute();
    return undefined;
  }
  const disabled = await ctx.store.transaction(async (trx) => {
    const read = trx
      .selectFrom('webhook_endpoints')
      .select(['app_id', 'status', 'failing_since', 'url'])
      .where('id', '=', endpointId);
    const endpoint = await ctx.store.lockRows(read).executeTakeFirst();
    if (endpoint === undefined || endpoint.status !== 'active') return false;
    const since = endpoint.failing_since ?? null;
    if (since === null) {
      await trx
        .updateTable('webhook_endpoints')
        .set({ failing_since: now })
        .where('id', '=', endpointId)
        .execute();
      return false;
    }
    if (now - since < AUTO_DISABLE_AFTER_MS) return false;
    await trx
      .updateTable('webhook_endpoints')
      .set({ status: 'disabled', disabled_reason: 'failing', updated_at: now })
      .where('id', '=', endpointId)
      .execute();
    await recordAudit(trx, {
      actor: actorName(SYSTEM),
      action: 'webhook.auto_disable',
      targetType: 'app',
      targetId: endpoint.app_id,
      details: { endpoint_id: endpointId, failing_since: Math.floor(since / 1000), days: 5 },
      source: 'webhook dispatcher',
      at: now,
    });
    return true;
  });
  if (!disabled) return undefined;
  ctx.metrics.webhookEndpointsAutoDisabled.inc();
  return 'disabled';
}
