import { after, before } from 'node:test';
import { loadConfig } from '../../src/config.ts';
import type { ServiceContext } from '../../src/context.ts';
import { createLogger } from '../../src/logger.ts';
import { openContext } from '../../src/start.ts';
import { createStoreTarget, type StoreTarget } from './stores.ts';

/**
 * A service context on a fresh store of `storeName` for the tests of one `describe`, called inside
 * it: opened before them, closed and its store dropped after. Returns the context's getter.
 */
export function suiteContext(storeName: 'sqlite' | 'postgres'): () => ServiceContext {
  let target: StoreTarget | undefined;
  let ctx: ServiceContext | undefined;
  before(async () => {
    target = createStoreTarget(storeName);
    ctx = await openContext(loadConfig(target.env), createLogger({ logLevel: 'silent' }));
  });
  after(async () => {
    await ctx?.store.close();
    await target?.cleanup();
  });
  return () => {
    if (ctx === undefined) throw new Error('suiteContext: the suite has not started');
    return ctx;
  };
}
