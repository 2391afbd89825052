import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FetchDeferred, FetchSlots, type Slot } from './fetchSlots.ts';

/** The scheduler alone, on a clock the test moves: who gets a freed slot, and how a host backs off. */
function clock() {
  let now = Date.now();
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

const settled = async <T>(promise: Promise<T>) => {
  let done = false;
  void promise.then(
    () => (done = true),
    () => (done = true),
  );
  await new Promise((resolve) => setImmediate(resolve));
  return done;
};

test('a freed slot goes round the waiting partners in turn, each under its own cap', async () => {
  const time = clock();
  const slots = new FetchSlots({ total: 3, perPartner: 2, perHost: 3, backoffMs: 0 }, time.now);
  const window = slots.window(Date.now() + 60_000);
  const order: string[] = [];
  const take = (partner: string, host: string) =>
    window.take(partner, host).then((slot) => {
      order.push(partner);
      return slot;
    });
  const a1 = take('A', 'a.example');
  const a2 = take('A', 'a.example');
  const a3 = take('A', 'a.example');
  const a4 = take('A', 'a.example');
  const b1 = take('B', 'b.example');
  const b2 = take('B', 'b.example');
  const c1 = take('C', 'c.example');
  await settled(a1);
  // A's cap is 2; B takes the third slot, though A asked first.
  assert.deepEqual(order, ['A', 'A', 'B']);
  assert.deepEqual(slots.counts(), {
    running: 3,
    host_backoff: 0,
    host_limit: 0,
    partner_limit: 2,
    slots: 2,
  });
  (await a1).release('ok');
  await settled(c1);
  // A slot freed by A: C, then (as B's and A's turns come round) the next ones.
  assert.deepEqual(order, ['A', 'A', 'B', 'C']);
  (await a2).release('ok');
  await settled(b2);
  assert.deepEqual(order, ['A', 'A', 'B', 'C', 'A']);
  (await b1).release('ok');
  await settled(b2);
  assert.deepEqual(order, ['A', 'A', 'B', 'C', 'A', 'B']);
  for (const slot of await Promise.all([a3, c1, b2])) slot.release('ok');
  await settled(a4);
  assert.deepEqual(order, ['A', 'A', 'B', 'C', 'A', 'B', 'A']);
  (await a4).release('neither');
  assert.equal(slots.counts().running, 0);
  window.close();
});

test('a host at its cap leaves the same partner its other hosts', async () => {
  const slots = new FetchSlots({ total: 10, perPartner: 10, perHost: 1, backoffMs: 0 });
  const window = slots.window(Date.now() + 60_000);
  const first = await window.take('A', 'slow.example');
  const second = window.take('A', 'slow.example');
  const other = await window.take('A', 'fast.example');
  assert.equal(await settled(second), false);
  assert.equal(slots.counts().host_limit, 1);
  other.release('ok');
  first.release('ok');
  (await second).release('ok');
  window.close();
});

test('a failing host backs off, doubling per failure in a row, once per outage; a success ends it', async () => {
  const time = clock();
  const slots = new FetchSlots({ total: 10, perPartner: 10, perHost: 10, backoffMs: 1_000 }, time.now);
  const window = slots.window(Date.now() + 60_000);
  // Two in flight when the host fails: one outage, one step of backoff.
  const [one, two] = await Promise.all([window.take('A', 'h'), window.take('A', 'h')]);
  one.release('failed');
  two.release('failed');
  const waiting = window.take('A', 'h');
  assert.equal(await settled(waiting), false);
  assert.equal(slots.counts().host_backoff, 1);
  assert.equal(slots.counts().running, 0, 'the waiter holds no slot');
  time.advance(1_000);
  const again: Slot = await waiting; // the timer woke the line (a real 1 s)
  // A second failure in a row: 2 s.
  again.release('failed');
  const next = window.take('A', 'h');
  time.advance(1_999);
  assert.equal(await settled(next), false);
  time.advance(1);
  (await next).release('ok');
  // The streak is over: a failure now backs off 1 s again.
  const last = await window.take('A', 'h');
  last.release('failed');
  const after = window.take('A', 'h');
  time.advance(1_000);
  (await after).release('ok');
  window.close();
});

test("a wait ends at its window's end, deferred, not failed; a backoff past the window defers at once", async () => {
  const time = clock();
  const slots = new FetchSlots({ total: 1, perPartner: 1, perHost: 1, backoffMs: 5_000 }, time.now);
  const held = await slots.window(Date.now() + 60_000).take('A', 'h');
  const short = slots.window(Date.now() + 50);
  const waiting = short.take('B', 'other');
  await assert.rejects(waiting, (error) => error instanceof FetchDeferred && error.at === 0);
  held.release('failed');
  const window = slots.window(time.now() + 1_000);
  await assert.rejects(
    window.take('A', 'h'),
    (error) => error instanceof FetchDeferred && error.at === time.now() + 5_000,
  );
  window.close();
});
