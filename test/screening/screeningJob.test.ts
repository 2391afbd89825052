import assert from 'node:assert/strict';
import { createReadStream } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { pino } from 'pino';
import { loadConfig } from '../../src/config.ts';
import type { ServiceContext } from '../../src/context.ts';
import { createLogger } from '../../src/logger.ts';
import { importList } from '../../src/screening/importList.ts';
import { screeningJob } from '../../src/screening/screeningJob.ts';
import { openContext } from '../../src/start.ts';
import { newAppId, submitMany } from '../helpers/events.ts';
import { createStoreTarget, storeNames, type StoreTarget } from '../helpers/stores.ts';

for (const storeName of storeNames()) {
  describe(`the screening job (${storeName})`, () => {
    let target: StoreTarget;
    let ctx: ServiceContext;
    before(async () => {
      target = createStoreTarget(storeName);
      ctx = await openContext(loadConfig(target.env), createLogger({ logLevel: 'silent' }));
    });
    after(async () => {
      await ctx.store.close();
      await target.cleanup();
    });

    test('decrypts nothing while no list is in force, and every applicant once one is', async () => {
      const serials = await submitMany(ctx, await newAppId(ctx, 'screened partner'), 3);
      // The same context, its key ring counting the payloads it opens.
      let decrypted = 0;
      const keyRing = new Proxy(ctx.keyRing, {
        get(ring, name) {
          const value: unknown = Reflect.get(ring, name, ring);
          if (typeof value !== 'function') return value;
          return (...args: unknown[]) => {
            if (name === 'decrypt') decrypted++;
            return (value as (...a: unknown[]) => unknown).apply(ring, args);
          };
        },
      });
      const watched = Object.create(ctx, { keyRing: { value: keyRing } }) as ServiceContext;
      const job = {
        id: 'j',
        kind: screeningJob.kind,
        key: 'k',
        busi_water_no: null,
        payload: { serials },
        attempts: 1,
        created_at: ctx.now(),
        give_up_at: null,
      };
      const run = () =>
        screeningJob.run(watched, job, pino({ level: 'silent' }), new AbortController().signal);

      assert.deepEqual(await run(), { outcome: 'done' });
      assert.equal(decrypted, 0, 'no list in force: no applicant opened');

      await importList(ctx, {
        list: 'un',
        source: createReadStream(new URL('./labelled/list.xml', import.meta.url)),
        actor: 'system',
        origin: 'test',
      });
      assert.deepEqual(await run(), { outcome: 'done' });
      assert.equal(decrypted, serials.length, 'a list in force: each applicant opened once');
    });
  });
}
