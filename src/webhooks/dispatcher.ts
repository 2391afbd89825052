import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { performance } from 'node:perf_hooks';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Logger } from 'pino';
import type { ServiceContext } from '../context.ts';
import { wakeablePause } from '../shutdown.ts';
import { eventView } from '../applications/views/eventView.ts';
import { describe } from '../errors/describe.ts';
import { verdict } from './backoff.ts';
import { claimDeliveries, fanOutEvents, type ClaimedDelivery } from './deliveryQueue.ts';
import { completeDelivery, type NextState } from './deliveryRepository.ts';
import { secretAad } from './endpoints.ts';
import { recordEndpointHealth } from './endpointHealth.ts';
import { send, type SendResult } from './send.ts';
import { signedHeaders } from '../crypto/webhookSignature.ts';

/**
 * The webhook dispatcher: a loop that fans new events out into deliveries, leases due deliveries
 * (as many as it has free slots, so nothing waits in memory while its lease runs) and sends each
 * one, signed, with a time-out. It runs inside the service process (WEBHOOK_WORKER) and as
 * `cardapply worker`; any number of them share one store.
 */

export interface AttemptReport {
  deliveryId: string;
  eventId: string;
  endpointId: string;
  statusCode: number | null;
  error: string | null;
  durationMs: number;
  /** delivered; retry (scheduled again); failed (gave up); released (cut short by stop()). */
  outcome: 'delivered' | 'retry' | 'failed' | 'released';
  /** False when the lease had run out and another worker had taken the delivery over. */
  recorded: boolean;
}

export interface DispatcherOptions {
  /** Identifies this worker in leases and in the attempt log. */
  workerId?: string;
  concurrency?: number;
  pollIntervalMs?: number;
  /** How long stop() lets attempts in flight finish before cutting them short (they are retried). */
  stopGraceMs?: number;
  /** Called after every attempt: the hook for metrics. */
  onAttempt?: (report: AttemptReport) => void;
}

export interface Dispatcher {
  readonly workerId: string;
  /** Stops claiming, lets attempts in flight finish (or releases them) and resolves when done. */
  stop(): Promise<void>;
}

/** Events fanned out per transaction. */
const FAN_OUT_BATCH = 100;

export function newWorkerId(): string {
  return `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
}

export function startDispatcher(
  ctx: ServiceContext,
  logger: Logger,
  options: DispatcherOptions = {},
): Dispatcher {
  const config = ctx.config.webhooks;
  const workerId = options.workerId ?? newWorkerId();
  const concurrency = options.concurrency ?? config.concurrency;
  const pollIntervalMs = options.pollIntervalMs ?? config.pollIntervalMs;
  const stopGraceMs = options.stopGraceMs ?? Math.floor(ctx.config.shutdownGraceMs / 2);
  const log = logger.child({ component: 'webhooks', worker: workerId });

  const inFlight = new Set<Promise<void>>();
  const cutShort = new AbortController();
  let stopping = false;
  let moreDue = false;

  const pause = wakeablePause();
  const attempts: AttemptContext = {
    ctx,
    log,
    workerId,
    cutShort: cutShort.signal,
    onAttempt: options.onAttempt,
  };

  function track(work: Promise<void>): void {
    const settled: Promise<void> = work
      .catch((error: unknown) => log.error({ err: describe(error) }, 'webhook attempt failed to run'))
      .finally(() => {
        inFlight.delete(settled);
        // A slot is free and more may be due: look now rather than at the next poll.
        if (moreDue) pause.wake();
      });
    inFlight.add(settled);
  }

  async function loop(): Promise<void> {
    while (!stopping) {
      let busy: boolean;
      try {
        const now = ctx.now();
        const fanned = await fanOutEvents(ctx.store, {
          now,
          limit: FAN_OUT_BATCH,
          maxAgeMs: config.maxAgeSeconds * 1000,
        });
        busy = fanned === FAN_OUT_BATCH;
        const free = concurrency - inFlight.size;
        if (free > 0 && !stopping) {
          const claimed = await claimDeliveries(ctx.store, {
            workerId,
            now: ctx.now(),
            leaseMs: config.leaseMs,
            limit: free,
          });
          for (const claim of claimed) track(attemptDelivery(attempts, claim));
          moreDue = claimed.length === free;
          busy = busy || (claimed.length > 0 && moreDue);
        }
      } catch (error) {
        log.warn({ err: describe(error) }, 'webhook dispatcher could not reach the store');
        busy = false;
      }
      if (stopping) break;
      if (inFlight.size >= concurrency) await Promise.race([...inFlight, pause(pollIntervalMs)]);
      else if (!busy) await pause(pollIntervalMs);
      // More to do: at once, but a turn of the event loop later, after the requests that arrived
      // meanwhile. SQLite answers in this thread, so a backlog taken batch after batch held the
      // loop for all of it (docs/PERFORMANCE.md, "The fan-out a turn apart").
      else await nextTurn();
    }
  }

  const looping = loop();
  log.info({ concurrency, poll_interval_ms: pollIntervalMs }, 'webhook dispatcher started');

  let stopped: Promise<void> | undefined;
  return {
    workerId,
    stop() {
      stopped ??= (async () => {
        stopping = true;
        pause.wake();
        await looping;
        const grace = setTimeout(() => cutShort.abort(), stopGraceMs);
        await Promise.allSettled([...inFlight]);
        clearTimeout(grace);
        log.info('webhook dispatcher stopped');
      })();
      return stopped;
    },
  };
}

/** What an attempt needs of its dispatcher. */
interface AttemptContext {
  ctx: ServiceContext;
  log: Logger;
  workerId: string;
  /** Aborted when stop() runs out of grace: the attempt is released and retried. */
  cutShort: AbortSignal;
  onAttempt: DispatcherOptions['onAttempt'];
}

/** One delivery attempt: send it, record what came of it, and report it. */
async function attemptDelivery(attempts: AttemptContext, claim: ClaimedDelivery): Promise<void> {
  const { ctx, log } = attempts;
  const config = ctx.config.webhooks;
  const startedAt = ctx.now();
  const started = performance.now();
  const result = await sendSigned(attempts, claim);
  const durationMs = Math.round(performance.now() - started);
  const now = ctx.now();
  const ok = result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300;
  const next: NextState =
    !ok && result.error === 'aborted'
      ? { status: 'pending', nextAttemptAt: now, release: true }
      : verdict(
          { ok },
          { attempt_count: claim.attemptCount, give_up_at: claim.giveUpAt },
          now,
          config,
          startedAt,
        );
  let recorded = false;
  try {
    recorded = await completeDelivery(
      ctx.store,
      { id: claim.id, workerId: attempts.workerId },
      { startedAt, durationMs, statusCode: result.statusCode, error: result.error },
      next,
      now,
    );
  } catch (error) {
    // The lease runs out and another attempt follows: at least once, never lost.
    log.warn({ err: describe(error), delivery_id: claim.id }, 'could not record a webhook attempt');
  }
  const released = 'release' in next && next.release === true;
  // An attempt cut short by this worker says nothing of the endpoint's health.
  if (recorded && !released) await recordHealth(attempts, claim.endpointId, ok, now);
  const outcome: AttemptReport['outcome'] =
    next.status === 'delivered'
      ? 'delivered'
      : next.status === 'failed'
        ? 'failed'
        : released
          ? 'released'
          : 'retry';
  reportAttempt(
    attempts,
    {
      deliveryId: claim.id,
      eventId: claim.eventId,
      endpointId: claim.endpointId,
      statusCode: result.statusCode,
      error: result.error,
      durationMs,
      outcome,
      recorded,
    },
    claim.attemptCount,
  );
}

/** The event's body, signed with every secret in force, sent with the delivery's time-out. */
async function sendSigned(attempts: AttemptContext, claim: ClaimedDelivery): Promise<SendResult> {
  const { ctx } = attempts;
  const config = ctx.config.webhooks;
  try {
    const secrets = claim.secrets.map((s) =>
      ctx.keyRing.decrypt(s.secret_enc, secretAad(claim.endpointId, s.id)),
    );
    if (secrets.length === 0) return { statusCode: null, error: 'no signing secret in force' };
    const body = JSON.stringify(eventView(claim.event));
    const headers = signedHeaders(secrets, claim.eventId, Math.floor(ctx.now() / 1000), body);
    const signal = AbortSignal.any([AbortSignal.timeout(config.timeoutMs), attempts.cutShort]);
    return await send(claim.url, headers, body, { signal, allowPrivate: config.allowPrivate });
  } catch (error) {
    attempts.log.error({ err: describe(error), delivery_id: claim.id }, 'webhook attempt failed to run');
    return { statusCode: null, error: 'internal error' };
  }
}

async function recordHealth(
  attempts: AttemptContext,
  endpointId: string,
  ok: boolean,
  now: number,
): Promise<void> {
  try {
    const health = await recordEndpointHealth(attempts.ctx, endpointId, ok, now);
    if (health === 'disabled') {
      attempts.log.warn({ endpoint_id: endpointId }, 'webhook endpoint disabled: failing for five days');
    }
  } catch (error) {
    attempts.log.warn({ err: describe(error), endpoint_id: endpointId }, 'could not record endpoint health');
  }
}

/** The attempt's log line (its level by outcome) and the onAttempt hook. */
function reportAttempt(attempts: AttemptContext, report: AttemptReport, attempt: number): void {
  const fields = {
    delivery_id: report.deliveryId,
    event_id: report.eventId,
    endpoint_id: report.endpointId,
    attempt,
    status_code: report.statusCode,
    error: report.error,
    duration_ms: report.durationMs,
    outcome: report.outcome,
  };
  if (report.outcome === 'delivered') attempts.log.debug(fields, 'webhook delivered');
  else if (report.outcome === 'failed') attempts.log.error(fields, 'webhook delivery failed for good');
  else attempts.log.warn(fields, 'webhook attempt failed');
  try {
    attempts.onAttempt?.(report);
  } catch (error) {
    attempts.log.warn({ err: describe(error) }, 'onAttempt hook failed');
  }
}
