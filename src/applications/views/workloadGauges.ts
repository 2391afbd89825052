import { oldestWaiting } from './workload.ts';
import type { Store } from '../../store/connect.ts';
import type { ServiceMetrics } from '../../metrics/metrics.ts';

/** Read at most this often, however often Prometheus scrapes. */
const CACHE_MS = 5_000;

/**
 * `cardapply_review_oldest_waiting_seconds{status}`: how long the oldest application has been in
 * each status that is not final (0 when none), so that an alert can fire before an SLA is missed.
 */
export function registerWorkloadGauges(metrics: ServiceMetrics, store: Store, now: () => number): void {
  let cached: { at: number; ages: Map<string, number | null> } | undefined;
  metrics.gauge(
    'cardapply_review_oldest_waiting_seconds',
    'Seconds the oldest application has been in each status that is not final (0 when none)',
    ['status'],
    async (gauge) => {
      if (cached === undefined || now() - cached.at > CACHE_MS) {
        try {
          cached = { at: now(), ages: await oldestWaiting(store, now()) };
        } catch {
          return; // a store that does not answer shows as a stale gauge, never a failed scrape
        }
      }
      for (const [status, age] of cached.ages) gauge.set({ status }, age ?? 0);
    },
  );
}
