import assert from 'node:assert/strict';
import { test } from 'node:test';
import { newEventId } from './outbox.ts';

/** Event ids: the listing cursor's format, in the order of time, unique within a millisecond. */
const FORMAT = /^evt_[0-9a-f]{32}$/;

test('an event id is evt_ and 32 hexadecimal digits, whatever the time', () => {
  for (const at of [0, 1, Date.UTC(2026, 10, 29), 0xfff_ffff_ffff, 0x1000_0000_0000, 2 ** 53, -5, 1.5]) {
    assert.match(newEventId(at), FORMAT, String(at));
  }
});

test('ids of later milliseconds sort after earlier ones, so the primary key grows at its end', () => {
  const times = [
    0,
    1,
    15,
    16,
    Date.UTC(2026, 10, 29, 9, 59, 59, 999),
    Date.UTC(2026, 10, 29, 10),
    0xfff_ffff_ffff,
    0x1000_0000_0000,
  ];
  for (let i = 1; i < times.length; i++) {
    for (let draw = 0; draw < 50; draw++) {
      const earlier = newEventId(times[i - 1]!);
      const later = newEventId(times[i]!);
      assert.ok(earlier < later, `${earlier} < ${later}`);
    }
  }
});

test('ids drawn in the same millisecond differ', () => {
  const at = Date.now();
  const ids = new Set(Array.from({ length: 20_000 }, () => newEventId(at)));
  assert.equal(ids.size, 20_000);
});
