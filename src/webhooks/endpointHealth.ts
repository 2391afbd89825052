import { recordAudit } from '../audit/auditTrail.ts';
import { actorName, SYSTEM } from '../audit/actor.ts';
import type { ServiceContext } from '../context.ts';
import { clearFailing, disableFailing, lockEndpointHealth, markFailing } from './endpointRepository.ts';

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
    await clearFailing(ctx.store.db, endpointId);
    return undefined;
  }
  const disabled = await ctx.store.transaction(async (trx) => {
    const endpoint = await lockEndpointHealth(ctx.store, trx, endpointId);
    if (endpoint === undefined || endpoint.status !== 'active') return false;
    const since = endpoint.failing_since ?? null;
    if (since === null) {
      await markFailing(trx, endpointId, now);
      return false;
    }
    if (now - since < AUTO_DISABLE_AFTER_MS) return false;
    await disableFailing(trx, endpointId, now);
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
