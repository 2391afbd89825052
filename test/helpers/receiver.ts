import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

/**
 * A real webhook receiver on a loopback port. It verifies every request's signature with the
 * `standardwebhooks` package (a verifier nobody here wrote) against the secrets it is given, and
 * records what arrived and what it answered. `behaviour` decides the answer per call.
 */
export interface Received {
  id: string;
  timestamp: number;
  signatures: string[];
  body: string;
  parsed: {
    id: string;
    type: string;
    created_at: number;
    data: Record<string, unknown> & { busi_water_no: string; sequence: number };
  };
  /** Index of the first secret that verified the request, or -1. */
  verifiedBy: number;
  /** Which of the secrets verified it. */
  verifiedWith: number[];
  answered: number;
  /** Receiver time when the request arrived, ms. */
  at: number;
}

export interface Answer {
  status: number;
  delayMs?: number;
}

export type Behaviour = (call: number, id: string) => Answer;

export interface Receiver {
  readonly url: string;
  readonly port: number;
  /** Every request, in order of arrival. */
  readonly received: Received[];
  /** Requests that got a 2xx, by webhook-id: how many times each. */
  acknowledged(): Map<string, number>;
  secrets: string[];
  behaviour: Behaviour;
  /** Largest number of requests with one webhook-id in flight at once. */
  maxConcurrentPerId: number;
  /** Requests being handled right now (arrived, not yet answered). */
  inFlight(): number;
  /** Stops listening (the port refuses connections) until `start` again. */
  stop(): Promise<void>;
  start(): Promise<void>;
  close(): Promise<void>;
  waitFor(predicate: () => boolean, timeoutMs: number, what: string): Promise<void>;
}

const OK: Behaviour = () => ({ status: 204 });

export async function startReceiver(secrets: string[] = [], behaviour: Behaviour = OK): Promise<Receiver> {
  const received: Received[] = [];
  const inFlight = new Map<string, number>();
  let calls = 0;
  let server: Server | undefined;
  let port = 0;

  const receiver: Receiver = {
    url: '',
    port: 0,
    received,
    secrets,
    behaviour,
    maxConcurrentPerId: 0,
    inFlight() {
      let total = 0;
      for (const n of inFlight.values()) total += n;
      return total;
    },
    acknowledged() {
      const counts = new Map<string, number>();
      for (const r of received)
        if (r.answered >= 200 && r.answered < 300) counts.set(r.id, (counts.get(r.id) ?? 0) + 1);
      return counts;
    },
    async stop() {
      const s = server;
      server = undefined;
      if (s === undefined) return;
      s.closeAllConnections();
      await new Promise<void>((resolve) => s.close(() => resolve()));
    },
    async start() {
      server = createServer((request, response) => void handle(request, response));
      await new Promise<void>((resolve) => server!.listen(port, '127.0.0.1', resolve));
      port = (server!.address() as AddressInfo).port;
    },
    async close() {
      await receiver.stop();
    },
    async waitFor(predicate, timeoutMs, what) {
      const deadline = Date.now() + timeoutMs;
      while (!predicate()) {
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
        await new Promise((r) => setTimeout(r, 20));
      }
    },
  };

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(request.headers)) if (typeof v === 'string') headers[k] = v;
    const id = headers['webhook-id'] ?? '';
    const now = inFlight.get(id) ?? 0;
    inFlight.set(id, now + 1);
    receiver.maxConcurrentPerId = Math.max(receiver.maxConcurrentPerId, now + 1);
    const verifiedWith: number[] = [];
    receiver.secrets.forEach((secret, index) => {
      try {
        new Webhook(secret).verify(body, headers);
        verifiedWith.push(index);
      } catch {
        // not this secret
      }
    });
    const answer = receiver.behaviour(calls++, id);
    const entry: Received = {
      id,
      timestamp: Number(headers['webhook-timestamp']),
      signatures: (headers['webhook-signature'] ?? '').split(' '),
      body,
      parsed: JSON.parse(body) as Received['parsed'],
      verifiedBy: verifiedWith[0] ?? -1,
      verifiedWith,
      answered: answer.status,
      at: Date.now(),
    };
    try {
      if (answer.delayMs !== undefined) await new Promise((r) => setTimeout(r, answer.delayMs));
      received.push(entry);
      response.writeHead(answer.status, { 'content-type': 'text/plain' });
      response.end(answer.status < 300 ? 'ok' : 'no');
    } finally {
      inFlight.set(id, (inFlight.get(id) ?? 1) - 1);
    }
  }

  await receiver.start();
  Object.defineProperty(receiver, 'port', { get: () => port });
  Object.defineProperty(receiver, 'url', { get: () => `http://127.0.0.1:${port}/hooks` });
  return receiver;
}
