import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { uniqueApplicant } from '../test/helpers/applicants.ts';
import type { LoadResult } from './load.ts';
import { paced } from './paced.ts';

/**
 * A paced load of fresh submissions (paced.ts) on a thread of its own: run beside autocannon in
 * the same event loop, its requests would leave late whenever autocannon kept the loop busy, and
 * that lateness would be counted as the server's latency.
 */
export interface PacedSubmissions {
  url: string;
  path: string;
  token: string;
  appId: string;
  rate: number;
  seconds: number;
  connections: number;
  /** Applicants are numbered from here, apart from the main thread's. */
  firstApplicant: number;
}

export function pacedInThread(options: PacedSubmissions): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const thread = new Worker(new URL(import.meta.url), { workerData: options });
    thread.once('message', (result: LoadResult) => resolve(result));
    thread.once('error', reject);
  });
}

if (!isMainThread) {
  const options = workerData as PacedSubmissions;
  let next = options.firstApplicant;
  const result = await paced({
    url: options.url,
    path: options.path,
    headers: { authorization: options.token },
    body: () => JSON.stringify(uniqueApplicant(next++, options.appId)),
    rate: options.rate,
    seconds: options.seconds,
    connections: options.connections,
  });
  parentPort!.postMessage(result);
}
