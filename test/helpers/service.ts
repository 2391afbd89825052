import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { build } from '../../src/app.ts';
import { createApp } from '../../src/partners/credentials.ts';
import { loadConfig } from '../../src/config.ts';
import type { ServiceContext } from '../../src/context.ts';
import { PATHS } from '../../src/http/paths.ts';
import { createLogger } from '../../src/logger.ts';
import { openContext } from '../../src/start.ts';
import { createStoreTarget, type StoreTarget } from './stores.ts';

/** A running service on a random loopback port, on one store, with its log lines captured. */
export interface TestService {
  readonly target: StoreTarget;
  readonly ctx: ServiceContext;
  readonly app: FastifyInstance;
  readonly baseUrl: string;
  /** Every log line the service wrote, raw. */
  readonly logs: string[];
  close(): Promise<void>;
}

/**
 * Tests of other features are not slowed by the per-app rate limit nor capped by the per-app
 * concurrency limit (the tests of the limits set their own), nor by the operators' second factor, which a helper would otherwise have to satisfy at
 * every sign-in (a TOTP code works once per 30 s): the tests of the second factor, and of sign-in
 * with it, set `OPERATOR_MFA_REQUIRED=true` (or enrol with `newOperator(..., { mfa: true })`).
 */
export const UNLIMITED = {
  RATE_LIMIT_PER_SECOND: '1000000',
  RATE_LIMIT_BURST: '1000000',
  APP_CONCURRENCY_LIMIT: '1000000',
  OPERATOR_MFA_REQUIRED: 'false',
};

export async function startService(
  storeName: 'sqlite' | 'postgres',
  env: Record<string, string> = {},
): Promise<TestService> {
  const target = createStoreTarget(storeName);
  const instance = await startInstanceOn(target, env);
  return {
    ...instance,
    close: async () => {
      await instance.close();
      await target.cleanup();
    },
  };
}

/**
 * One in-process instance on a store that others may share (several instances of one deployment):
 * its `close` stops the instance and leaves the store to its owner. `extend` may add test-only
 * routes before it listens.
 */
export async function startInstanceOn(
  target: StoreTarget,
  env: Record<string, string> = {},
  extend?: (app: FastifyInstance, ctx: ServiceContext) => void,
): Promise<TestService> {
  const config = loadConfig({ ...target.env, LOG_LEVEL: 'info', ...UNLIMITED, ...env });
  const logs: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      logs.push(chunk.toString('utf8'));
      callback();
    },
  });
  const logger = createLogger(config, sink);
  const ctx = await openContext(config, logger);
  const app = await build(ctx, { logger });
  extend?.(app, ctx);
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  return {
    target,
    ctx,
    app,
    baseUrl: address,
    logs,
    close: async () => {
      await app.close();
      await ctx.store.close();
    },
  };
}

export interface Reply {
  status: number;
  headers: Headers;
  body: { code: number; data: unknown; msg: string } & Record<string, unknown>;
  text: string;
}

/** POST a JSON body (or raw text/bytes) and read the envelope back. */
export async function post(
  baseUrl: string,
  path: string,
  body: unknown,
  options: { token?: string; headers?: Record<string, string>; raw?: string | Buffer } = {},
): Promise<Reply> {
  const headers: Record<string, string> = { 'content-type': 'application/json', ...options.headers };
  if (options.token !== undefined) headers['authorization'] = `Bearer ${options.token}`;
  const response = await fetch(`${baseUrl}${path}`, {
    method: 'POST',
    headers,
    body: options.raw ?? JSON.stringify(body),
  });
  const text = await response.text();
  let parsed: Reply['body'];
  try {
    parsed = JSON.parse(text) as Reply['body'];
  } catch {
    throw new Error(`not JSON (HTTP ${response.status}): ${text.slice(0, 200)}`);
  }
  return { status: response.status, headers: response.headers, body: parsed, text };
}

export const nowSeconds = () => Math.floor(Date.now() / 1000);

export interface TestPartner {
  appId: string;
  secret: string;
  token: string;
}

/** A fresh app with a token obtained over HTTP, as a partner would. */
export async function newPartner(service: TestService, name = 'test partner'): Promise<TestPartner> {
  const created = await createApp(service.ctx.store.db, name, Date.now());
  const reply = await post(service.baseUrl, PATHS.token, {
    app_id: created.app_id,
    app_secret: created.app_secret,
    timestamp: nowSeconds(),
  });
  if (reply.status !== 200) throw new Error(`token exchange failed: ${reply.text}`);
  const data = reply.body.data as { access_token: string };
  return { appId: created.app_id, secret: created.app_secret, token: data.access_token };
}
