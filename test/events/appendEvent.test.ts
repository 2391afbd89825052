import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { KyselyPlugin } from 'kysely';
import { eventRow } from '../../src/events/outbox.ts';
import { appendEvent } from '../../src/events/eventRepository.ts';
import { newAppId, submitMany } from '../helpers/events.ts';
import { storeNames } from '../helpers/stores.ts';
import { suiteContext } from '../helpers/suiteContext.ts';

/**
 * `appendEvent` on each store: an event takes the next number of its application's sequence in
 * one statement (no read before the insert), the numbers of one application follow each other
 * whatever other applications hold, and a number already taken is refused by the unique index.
 */

/** Counts the statements run through it. */
function countingPlugin(): KyselyPlugin & { statements: number } {
  return {
    statements: 0,
    transformQuery(args) {
      this.statements += 1;
      return args.node;
    },
    transformResult: async (args) => args.result,
  };
}

/** A fact about an application that moves nothing (a document's outcome), as the fetcher appends. */
function factOf(appId: string, busiWaterNo: string, reason: string) {
  return eventRow({
    appId,
    type: 'application.documents_kept',
    payload: {
      busi_water_no: busiWaterNo,
      status: 'SUBMITTED',
      previous_status: null,
      reason,
      reason_codes: [],
      card_no_masked: '539966******0000',
      external_id: null,
      documents: {},
    },
    at: Date.now(),
  });
}

for (const storeName of storeNames()) {
  describe(`appendEvent on ${storeName}`, () => {
    const context = suiteContext(storeName);

    const seqsOf = async (busiWaterNo: string) =>
      (
        await context()
          .store.db.selectFrom('events')
          .select('seq')
          .where('busi_water_no', '=', busiWaterNo)
          .orderBy('seq')
          .execute()
      ).map((row) => Number(row.seq));

    test('one statement an event, numbered after the last of its own application', async () => {
      const appId = await newAppId(context());
      const [first, second] = await submitMany(context(), appId, 2);
      const counting = countingPlugin();
      const db = context().store.db.withPlugin(counting);
      for (let i = 0; i < 3; i++) await appendEvent(db, factOf(appId, first!, `first ${i}`));
      await appendEvent(db, factOf(appId, second!, 'second'));
      assert.equal(counting.statements, 4);
      assert.deepEqual(await seqsOf(first!), [1, 2, 3, 4]);
      assert.deepEqual(await seqsOf(second!), [1, 2]);
    });

    test('concurrent appends in separate transactions never share a number', async () => {
      const appId = await newAppId(context());
      const [serial] = await submitMany(context(), appId, 1);
      const outcomes = await Promise.allSettled(
        Array.from({ length: 8 }, (_, i) =>
          context().store.transaction((trx) => appendEvent(trx, factOf(appId, serial!, `race ${i}`))),
        ),
      );
      const stored = await seqsOf(serial!);
      // Each append that succeeded holds its own number; the sequence has no gap.
      assert.equal(stored.length, 1 + outcomes.filter((o) => o.status === 'fulfilled').length);
      assert.deepEqual(
        stored,
        Array.from({ length: stored.length }, (_, i) => i + 1),
      );
    });
  });
}
