import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { build } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import type { ServiceContext } from '../../src/context.ts';
import { createLogger } from '../../src/logger.ts';
import { openContext } from '../../src/start.ts';
import { UNLIMITED, type TestService } from './service.ts';
import { createStoreTarget, type StoreTarget } from './stores.ts';

/**
 * Several in-process instances on one store (one SQLite file, or one PostgreSQL schema), as in a
 * scaled-out deployment. `extend` may add test-only routes before an instance listens.
 */
export interface Instances {
  readonly target: StoreTarget;
  readonly instances: TestService[];
  close(): Promise<void>;
}

export async function startInstances(
  storeName: 'sqlite' | 'postgres',
  count: number,
  env: Record<string, string> | ((index: number) => Record<string, string>) = {},
  extend?: (app: FastifyInstance, ctx: ServiceContext) => void,
): Promise<Instances> {
  const target = createStoreTarget(storeName);
  const instances: TestService[] = [];
  for (let i = 0; i < count; i++) {
    const own = typeof env === 'function' ? env(i) : env;
    const config = loadConfig({ ...target.env, LOG_LEVEL: 'info', ...UNLIMITED, ...own });
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
    const baseUrl = await app.listen({ port: 0, host: '127.0.0.1' });
    instances.push({
      target,
      ctx,
      app,
      baseUrl,
      logs,
      close: async () => {
        await app.close();
        await ctx.store.close();
      },
    });
  }
  return {
    target,
    instances,
    close: async () => {
      for (const instance of instances) await instance.close();
      await target.cleanup();
    },
  };
}
