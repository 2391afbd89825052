import { Agent, request } from 'node:http';
import type { LoadOptions, LoadResult } from './load.ts';

/**
 * A fixed-rate load, evenly paced and open-loop: request i is due at start + i / rate whatever
 * the answers before it, and its latency counts from when it was due (so a stalled server is not
 * flattered by requests the generator held back: coordinated omission). autocannon's `rate`
 * instead sends each connection's quota for the second back to back at the start of the second,
 * then waits: at "half the maximum rate" the server runs flat out for half a second and idles
 * for the other half, and the latency measured is the saturated one.
 */
export interface PacedResult extends LoadResult {
  /**
   * The run's slow stretches: each 250 ms window of due times whose slowest answer took over
   * 30 ms, as "second offset: that latency / the latest send" ("8.50s:152/3"). Where a p99 comes
   * from: one stall, or a tail spread over the run. A stall at the same offset in the service and
   * the floor is the machine's or the store's, not the service's; one whose requests left late
   * (the second figure near the first) is the load generator's own: its event loop was held.
   */
  slow: string[];
  /** How late requests left after their due time (ms): the generator's own share of the tail. */
  sentLate: { p99: number; max: number };
}

const WINDOW_MS = 250;
const SLOW_MS = 30;

export async function paced(options: LoadOptions & { rate: number }): Promise<PacedResult> {
  const url = new URL(`${options.url}${options.path}`);
  const agent = new Agent({ keepAlive: true, maxSockets: options.connections ?? 32 });
  const headers = { 'content-type': 'application/json', ...options.headers };
  const latencies: number[] = [];
  const slowest = new Map<number, number>(); // window index -> its slowest latency
  const latestSend = new Map<number, number>(); // window index -> how late its latest request left
  const lateness: number[] = [];
  const statuses: Record<string, number> = { '2xx': 0, '4xx': 0, '5xx': 0 };
  let errors = 0;
  const inFlight = new Set<Promise<void>>();

  const send = (due: number): Promise<void> =>
    new Promise<void>((resolve) => {
      const body = options.body();
      const late = performance.now() - due;
      lateness.push(late);
      const sentIn = Math.floor((due - start) / WINDOW_MS);
      latestSend.set(sentIn, Math.max(latestSend.get(sentIn) ?? 0, late));
      const req = request(
        url,
        { method: 'POST', agent, headers: { ...headers, 'content-length': Buffer.byteLength(body) } },
        (res) => {
          res.resume();
          res.on('end', () => {
            const latency = performance.now() - due;
            latencies.push(latency);
            const window = Math.floor((due - start) / WINDOW_MS);
            slowest.set(window, Math.max(slowest.get(window) ?? 0, latency));
            const status = res.statusCode ?? 0;
            const bucket = `${Math.floor(status / 100)}xx`;
            statuses[bucket] = (statuses[bucket] ?? 0) + 1;
            resolve();
          });
        },
      );
      req.on('error', () => {
        errors += 1;
        resolve();
      });
      req.end(body);
    });

  const start = performance.now();
  const total = Math.round(options.rate * options.seconds);
  let sent = 0;
  while (sent < total) {
    const now = performance.now();
    const due = Math.min(total, Math.floor(((now - start) / 1000) * options.rate) + 1);
    for (; sent < due; sent++) {
      const done = send(start + (sent / options.rate) * 1000);
      inFlight.add(done);
      void done.then(() => inFlight.delete(done));
    }
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  await Promise.all(inFlight);
  agent.destroy();

  latencies.sort((a, b) => a - b);
  lateness.sort((a, b) => a - b);
  const quantile = (values: number[], q: number) =>
    Math.round((values[Math.min(values.length - 1, Math.floor(q * values.length))] ?? 0) * 10) / 10;
  const at = (q: number) => quantile(latencies, q);
  const seconds = (performance.now() - start) / 1000;
  return {
    rps: latencies.length / seconds,
    statuses,
    p50: at(0.5),
    p99: at(0.99),
    p999: at(0.999),
    non2xx: latencies.length - (statuses['2xx'] ?? 0),
    requests: latencies.length,
    errors,
    slow: [...slowest]
      .filter(([, latency]) => latency > SLOW_MS)
      .sort(([a], [b]) => a - b)
      .map(
        ([window, latency]) =>
          `${((window * WINDOW_MS) / 1000).toFixed(2)}s:${Math.round(latency)}/${Math.round(latestSend.get(window) ?? 0)}`,
      ),
    sentLate: { p99: quantile(lateness, 0.99), max: quantile(lateness, 1) },
  };
}
