import assert from 'node:assert/strict';
import { createReadStream } from 'node:fs';
import { describe, test } from 'node:test';
import { pino } from 'pino';
import type { ServiceContext } from '../../src/context.ts';
import { importList } from '../../src/screening/importList.ts';
import { screeningJob } from '../../src/screening/screeningJob.ts';
import { newAppId, submitMany } from '../helpers/events.ts';
import { storeNames } from '../helpers/stores.ts';
import { suiteContext } from '../helpers/suiteContext.ts';

for (const storeName of storeNames()) {
  describe(`the screening job (${storeName})`, () => {
    const context = suiteContext(storeName);

    test('decrypts nothing while no list is in force, and every applicant once one is', async () => {
      const ctx = context();
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
