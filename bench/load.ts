import autocannon from 'autocannon';

/** One load run: 32 connections, a fixed duration, every request built by `body()` (or a fixed one). */
export interface LoadResult {
  rps: number;
  /** Responses by status code class: 2xx, 4xx (a duplicate is a 409), 5xx. */
  statuses: Record<string, number>;
  p50: number;
  p99: number;
  p999: number;
  non2xx: number;
  requests: number;
  errors: number;
}

export interface LoadOptions {
  url: string;
  path: string;
  headers?: Record<string, string>;
  body: () => string;
  seconds: number;
  connections?: number;
  /** Requests per second across all connections; unset means as fast as possible. */
  rate?: number;
}

export async function load(options: LoadOptions): Promise<LoadResult> {
  const result = await autocannon({
    url: `${options.url}${options.path}`,
    method: 'POST',
    connections: options.connections ?? 32,
    duration: options.seconds,
    ...(options.rate === undefined ? {} : { overallRate: options.rate }),
    headers: { 'content-type': 'application/json', ...options.headers },
    requests: [{ setupRequest: (request) => ({ ...request, body: options.body() }) }],
  });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    p999: result.latency.p99_9,
    non2xx: result.non2xx,
    statuses: { '2xx': result['2xx'], '4xx': result['4xx'], '5xx': result['5xx'] },
    requests: result.requests.total,
    errors: result.errors + result.timeouts,
  };
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}
