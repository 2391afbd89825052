import { randomInt } from 'node:crypto';
import type { ServiceContext } from '../context.ts';
import { signedHeaders } from '../crypto/webhookSignature.ts';
import type { ClaimedJob, JobKind } from '../jobs/jobQueue.ts';
import { alertOf, ISSUER_ALERT_KIND } from './issuerAlerts.ts';
import { findDeliveredHit } from './hitRepository.ts';

/**
 * Delivers the issuer's screening alert (issuerAlerts.ts) to `ISSUER_WEBHOOK_URL`, signed as
 * Standard Webhooks specifies, by the partners' webhooks' own signer (crypto/webhookSignature.ts), with the webhooks' time-out, backoff
 * and give-up age. The URL is the issuer's own setting, so it is not held to the partners'
 * public-address rule; redirects are not followed.
 */
async function post(
  url: string,
  headers: Record<string, string>,
  body: string,
  signal: AbortSignal,
): Promise<{ statusCode: number | null; error: string | null }> {
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json', 'user-agent': 'cardapply-screening/1.0' },
      body,
      redirect: 'manual',
      signal,
    });
    await response.body?.cancel();
    const ok = response.status >= 200 && response.status < 300;
    return { statusCode: response.status, error: ok ? null : `HTTP ${response.status}` };
  } catch (error) {
    if (signal.aborted) return { statusCode: null, error: 'timeout' };
    const cause = (error as { cause?: { code?: string } }).cause;
    return { statusCode: null, error: cause?.code ?? 'unreachable' };
  }
}

/** Pushes one alert; a refusal or a time-out is tried again with backoff until the job gives up. */
export const issuerAlertJob: JobKind = {
  kind: ISSUER_ALERT_KIND,
  concurrency: 2,
  // Longer than the longest attempt WEBHOOK_TIMEOUT_MS allows.
  leaseMs: 300_000,
  async run(ctx, job, log, signal) {
    const target = ctx.config.screening.issuerWebhook;
    if (target === undefined) return { outcome: 'failed', error: 'ISSUER_WEBHOOK_URL is no longer set' };
    const hit = await findDeliveredHit(ctx.store.db, job.key);
    if (hit === undefined) return { outcome: 'failed', error: 'no such hit' };
    const body = JSON.stringify(alertOf(hit));
    const timestamp = Math.floor(ctx.now() / 1000);
    const headers = signedHeaders([target.secret], hit.id, timestamp, body);
    const result = await post(
      target.url,
      headers,
      body,
      AbortSignal.any([AbortSignal.timeout(ctx.config.webhooks.timeoutMs), signal]),
    );
    const outcome = { hit_id: hit.id, status_code: result.statusCode, attempt: job.attempts };
    if (result.error === null) {
      log.info({ event: 'screening.alert_delivered', ...outcome }, 'screening alert delivered to the issuer');
      return { outcome: 'done' };
    }
    log.warn(
      { event: 'screening.alert_failed', error: result.error, ...outcome },
      'screening alert not delivered',
    );
    return { outcome: 'retry', at: nextAttempt(ctx, job), error: result.error };
  },
};

/** Exponential backoff with full jitter, as webhooks: up to min(max, base × 2^(n-1)). */
function nextAttempt(ctx: ServiceContext, job: ClaimedJob): number {
  const { backoffBaseMs, backoffMaxMs } = ctx.config.webhooks;
  const ceiling = Math.min(backoffMaxMs, backoffBaseMs * 2 ** Math.min(job.attempts - 1, 40));
  const next = ctx.now() + randomInt(Math.floor(ceiling) + 1);
  // The last attempt is made at the give-up time, as webhooks do; one later fails the job.
  return job.give_up_at === null || ctx.now() >= job.give_up_at ? next : Math.min(next, job.give_up_at);
}
