import type { FastifyInstance } from 'fastify';
import type { ServiceContext } from '../../src/context.ts';
import { startInstanceOn, type TestService } from './service.ts';
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
    instances.push(await startInstanceOn(target, typeof env === 'function' ? env(i) : env, extend));
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
