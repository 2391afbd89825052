import type { ServiceContext } from '../context.ts';
import type { ServiceMetrics } from '../metrics/metrics.ts';
import { screeningReadiness, type ScreeningReadiness } from './screeningReadiness.ts';

/** The lists in force are read at most this often, however often Prometheus scrapes. */
const CACHE_MS = 5_000;

/**
 * A gauge per list in force (its entries, the age of its newest import, when that was) and the
 * number of lists in force: an alert on `cardapply_screening_lists_in_force == 0` or on an age
 * well under `SCREENING_MAX_AGE_DAYS` warns before the instance stops being ready. A list no longer
 * in force keeps no series; every list is labelled by its name, whichever importer read it.
 */
export function registerScreeningGauges(
  metrics: ServiceMetrics,
  ctx: Pick<ServiceContext, 'config' | 'store' | 'now'>,
): void {
  let cached: { at: number; readiness: Promise<ScreeningReadiness | undefined> } | undefined;
  const read = () => {
    if (cached === undefined || Date.now() - cached.at >= CACHE_MS)
      cached = { at: Date.now(), readiness: screeningReadiness(ctx).catch(() => undefined) };
    return cached.readiness;
  };
  metrics.gauge(
    'cardapply_screening_lists_in_force',
    'Sanctions lists in force (imported at least once); 0: nothing is screened',
    [],
    async (gauge) => {
      const readiness = await read();
      if (readiness !== undefined) gauge.set(readiness.lists.length);
    },
  );
  const perList = (
    name: string,
    help: string,
    value: (list: ScreeningReadiness['lists'][number]) => number,
  ) =>
    metrics.gauge(name, help, ['list'], async (gauge) => {
      const readiness = await read();
      if (readiness === undefined) return;
      gauge.reset();
      for (const list of readiness.lists) gauge.set({ list: list.list }, value(list));
    });
  perList(
    'cardapply_screening_list_entries',
    'Individuals in the version of each list in force',
    (l) => l.entries,
  );
  perList(
    'cardapply_screening_list_age_seconds',
    "Seconds since each list's newest import; over SCREENING_MAX_AGE_DAYS the instance is not ready",
    (l) => l.age_seconds,
  );
  perList(
    'cardapply_screening_list_imported_timestamp_seconds',
    "Unix time of each list's newest import",
    (l) => l.imported_at,
  );
}
