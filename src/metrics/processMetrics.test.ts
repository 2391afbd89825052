import assert from 'node:assert/strict';
import { test } from 'node:test';
import { promotedBytes, scavenge } from '../../test/helpers/promoted.ts';
import { ServiceMetrics } from './metrics.ts';

test('the process metrics are there, but for the GC histogram', async () => {
  const metrics = new ServiceMetrics();
  metrics.collectProcessMetrics();
  const names = (await metrics.registry.getMetricsAsJSON()).map((metric) => metric.name);
  for (const name of [
    'cardapply_process_cpu_seconds_total',
    'cardapply_process_resident_memory_bytes',
    'cardapply_nodejs_eventloop_lag_p99_seconds',
    'cardapply_nodejs_heap_space_size_used_bytes',
    'cardapply_nodejs_active_handles',
    'cardapply_nodejs_version_info',
  ])
    assert.ok(names.includes(name), name);
  assert.equal(names.includes('cardapply_nodejs_gc_duration_seconds'), false);
});

/**
 * Observing collections costs the old generation: for each one Node builds a performance entry with
 * deprecated accessors, wrapped in new functions that are promoted (6 KB a collection sampled here with
 * prom-client's GC histogram on). A serving process collects its young generation every 50 ms or so.
 */
test('collections are not observed, so they put nothing in the old generation', async () => {
  const metrics = new ServiceMetrics();
  metrics.collectProcessMetrics();
  const collections = 400;
  const promoted = await promotedBytes('internal/perf/observe', async () => {
    for (let i = 0; i < collections; i++) {
      scavenge();
      // An observer hears of a collection after it, from the event loop.
      await new Promise((resolve) => setImmediate(resolve));
    }
  });
  assert.ok(promoted < 50 * collections, `${Math.round(promoted / collections)} bytes a collection`);
});
