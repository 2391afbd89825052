import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { promotedBytes, scavenge } from '../../test/helpers/promoted.ts';
import { WaitingById } from './waitingById.ts';

test('answers each id once, with its own value, however many wait', () => {
  fc.assert(
    fc.property(fc.array(fc.boolean(), { maxLength: 600 }), (steps) => {
      const waiting = new WaitingById<string>();
      const model = new Map<number, string>();
      let next = 1;
      for (const add of steps) {
        if (add || model.size === 0) {
          waiting.add(next, `value ${next}`);
          model.set(next, `value ${next}`);
          next += 1;
        } else {
          // Answers come mostly in order, sometimes not: take the second oldest now and then.
          const ids = [...model.keys()];
          const id = ids[ids.length > 1 && next % 3 === 0 ? 1 : 0]!;
          assert.equal(waiting.take(id), model.get(id));
          model.delete(id);
          assert.equal(waiting.take(id), undefined);
        }
        assert.equal(waiting.size, model.size);
      }
      assert.equal(waiting.take(next), undefined);
      assert.deepEqual(waiting.takeAll().sort(), [...model.values()].sort());
      assert.equal(waiting.size, 0);
    }),
    { numRuns: 300 },
  );
});

test('keeps one waiting for long while thousands come and go', () => {
  const waiting = new WaitingById<number>();
  waiting.add(1, 1);
  for (let id = 2; id < 10_000; id++) {
    waiting.add(id, id);
    assert.equal(waiting.take(id), id);
  }
  assert.equal(waiting.take(1), 1);
});

/**
 * A process-long Map that took and dropped an entry per submission, thirty waiting at a time, kept
 * 135 bytes an entry past the scavenges here (with the values it held); this keeps nothing.
 */
test('a long-lived one keeps nothing of the entries that came and went', async () => {
  const waiting = new WaitingById<{ resolve: () => void }>();
  for (let i = 0; i < 3; i++) scavenge();
  let id = 1;
  for (; id <= 30; id++) waiting.add(id, { resolve: () => undefined });
  const count = 40_000;
  // Everything under this test's own frames: the structure's work and the values it holds.
  const promoted = await promotedBytes('store/waitingById.test.ts', () => {
    for (let i = 0; i < count; i++, id++) {
      waiting.add(id, { resolve: () => undefined });
      waiting.take(id - 30);
      // A scavenge every hundred submissions, about every 50 ms at 2,000 a second.
      if (i % 100 === 99) scavenge();
    }
  });
  assert.ok(promoted < 5 * count, `${(promoted / count).toFixed(1)} bytes an entry kept past the scavenges`);
});
