import type { ApplicationRequest } from '../../../src/record/schema.ts';
import { PATHS } from '../../../src/http/paths.ts';
import { send, type Exchange } from './http.ts';

/**
 * Concurrent submission load against one service: `concurrency` workers submit in a loop until
 * stopped. Only a reply with code 0 counts as acknowledged. A dropped connection either ends the
 * worker (the process was killed) or is counted and retried (the process must stay up).
 */
export interface LoadOptions {
  baseUrl: string | (() => string);
  token: string | (() => string);
  concurrency: number;
  next: () => ApplicationRequest;
  /** End a worker when its connection fails (the service was killed); else count it and go on. */
  endOnConnectionError: boolean;
  onReply?: (reply: Exchange, sent: ApplicationRequest) => void;
  /** Extra headers per request (an Idempotency-Key, say). */
  headers?: () => Record<string, string>;
  timeoutMs?: number;
}

export interface Load {
  readonly acknowledged: string[];
  /** The applications behind `acknowledged`, in the same order. */
  readonly acknowledgedBodies: ApplicationRequest[];
  readonly statuses: Map<number, number>;
  connectionErrors: number;
  sent: number;
  /** Requests sent and not answered (nor failed) yet. */
  inFlight: number;
  stop(): Promise<void>;
}

export function startLoad(options: LoadOptions): Load {
  let stopped = false;
  const load: Load = {
    acknowledged: [],
    acknowledgedBodies: [],
    statuses: new Map(),
    connectionErrors: 0,
    sent: 0,
    inFlight: 0,
    stop: async () => {
      stopped = true;
      await Promise.all(workers);
    },
  };
  const value = <T>(v: T | (() => T)) => (typeof v === 'function' ? (v as () => T)() : v);
  const worker = async () => {
    while (!stopped) {
      const body = options.next();
      load.sent++;
      load.inFlight++;
      let reply: Exchange;
      try {
        reply = await send(value(options.baseUrl), PATHS.apply, {
          body,
          token: value(options.token),
          headers: options.headers?.() ?? {},
          timeoutMs: options.timeoutMs ?? 30_000,
        });
        load.inFlight--;
      } catch {
        load.inFlight--;
        load.connectionErrors++;
        if (options.endOnConnectionError) return;
        await new Promise((r) => setTimeout(r, 50));
        continue;
      }
      load.statuses.set(reply.status, (load.statuses.get(reply.status) ?? 0) + 1);
      const code = (reply.json as { code?: unknown } | undefined)?.code;
      if (reply.status === 200 && code === 0) {
        load.acknowledged.push((reply.json as { data: { busi_water_no: string } }).data.busi_water_no);
        load.acknowledgedBodies.push(body);
      }
      options.onReply?.(reply, body);
      // Back off a little when refused (an outage): the load must not turn into a busy loop.
      if (reply.status >= 500) await new Promise((r) => setTimeout(r, 20));
    }
  };
  const workers = Array.from({ length: options.concurrency }, worker);
  return load;
}
