import type { Store } from '../store/connect.ts';
import { oldestUnfannedEvent, undeliveredDeliveries } from './gaugeRepository.ts';
import type { ServiceMetrics } from './metrics.ts';

/** Store-derived values are read at most this often, however often Prometheus scrapes. */
const QUEUE_CACHE_MS = 5_000;
/** A scrape never waits longer than this for the store: a slow store shows as stale gauges. */
const QUEUE_TIMEOUT_MS = 1_000;

interface QueueState {
  pending: number;
  /** Milliseconds; null when every event is delivered. */
  oldestUndeliveredAt: number | null;
}

/**
 * Gauges read from the store when Prometheus scrapes: the connection pool (PostgreSQL) and the
 * webhook queue (deliveries not yet done and the age of the oldest event waiting for one). The queue
 * queries read only the partial indexes of pending work (`deliveries_due`, `events_fanout_pending`),
 * so they stay cheap however many deliveries are done; their result is kept for a few seconds.
 */
export function registerStoreGauges(metrics: ServiceMetrics, store: Store, now: () => number): void {
  metrics.gauge(
    'cardapply_store_pool_connections',
    'PostgreSQL pool connections of this instance: total, idle, and requests waiting for one',
    ['state'],
    (gauge) => {
      const stats = store.poolStats();
      if (stats === undefined) return;
      gauge.set({ state: 'total' }, stats.total);
      gauge.set({ state: 'idle' }, stats.idle);
      gauge.set({ state: 'waiting' }, stats.waiting);
    },
    'sum',
  );

  const grouped = store.groupCommitStats;
  if (grouped !== undefined) {
    // Submissions (and, on SQLite, the service's own transactions) share commits: the ratio of the
    // two counters is how many each commit carried, the first thing to read when the store's CPU
    // or fsyncs a submission rise.
    metrics.counterOf(
      'cardapply_store_group_commits_total',
      "Commits of this process that stored grouped work: PostgreSQL's submission batches, SQLite's writer thread and shared transactions",
      () => grouped().commits,
    );
    metrics.counterOf(
      'cardapply_store_group_commit_units_total',
      'Submissions and transactions those commits carried (units / commits: the batch size)',
      () => grouped().units,
    );
  }

  let cached: { at: number; state: QueueState } | undefined;
  let reading: Promise<QueueState | undefined> | undefined;
  const queue = async (): Promise<QueueState | undefined> => {
    if (cached !== undefined && Date.now() - cached.at < QUEUE_CACHE_MS) return cached.state;
    reading ??= withTimeout(readQueue(store), QUEUE_TIMEOUT_MS)
      .then((state) => {
        cached = { at: Date.now(), state };
        return state;
      })
      .catch(() => cached?.state)
      .finally(() => (reading = undefined));
    return reading;
  };
  metrics.gauge(
    'cardapply_webhook_deliveries_pending',
    'Webhook deliveries not yet delivered or given up (pending or being delivered), all instances',
    [],
    async (gauge) => {
      const state = await queue();
      if (state !== undefined) gauge.set(state.pending);
    },
  );
  metrics.gauge(
    'cardapply_webhook_oldest_undelivered_event_age_seconds',
    'Age of the oldest event still waiting for a delivery (0 when none waits), all instances',
    [],
    async (gauge) => {
      const state = await queue();
      if (state === undefined) return;
      const oldest = state.oldestUndeliveredAt;
      gauge.set(oldest === null ? 0 : Math.max(0, (now() - oldest) / 1000));
    },
  );
}

async function readQueue(store: Store): Promise<QueueState> {
  const row = await undeliveredDeliveries(store);
  const unfanned = await oldestUnfannedEvent(store.db);
  const candidates = [row?.oldest, unfanned?.oldest].filter((v) => v !== null && v !== undefined).map(Number);
  return {
    pending: Number(row?.pending ?? 0),
    oldestUndeliveredAt: candidates.length === 0 ? null : Math.min(...candidates),
  };
}

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('timed out')), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}
