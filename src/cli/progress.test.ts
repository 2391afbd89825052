import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startProgress } from './progress.ts';

function fakeStream(isTTY: boolean) {
  const lines: string[] = [];
  return { lines, stream: { isTTY, write: (text: string) => lines.push(text) } };
}

test('on a terminal: one line per batch with the count, the rate and the time left', () => {
  let clock = 0;
  const { lines, stream } = fakeStream(true);
  const progress = startProgress('re-encrypting', { total: 1000, stream, now: () => clock });
  clock = 1000;
  progress.advance(200);
  clock = 2000;
  progress.advance(200);
  clock = 5000;
  progress.advance(600);
  progress.finish();
  assert.deepEqual(lines, [
    're-encrypting: 200/1,000 rows (200/s, 4.0 s left)\n',
    're-encrypting: 400/1,000 rows (200/s, 3.0 s left)\n',
    're-encrypting: 1,000/1,000 rows (200/s)\n',
    're-encrypting: 1,000 rows in 5.0 s, 200/s\n',
  ]);
});

test('not on a terminal (a pipe, a log file): the summary alone', () => {
  let clock = 0;
  const { lines, stream } = fakeStream(false);
  const progress = startProgress('erasing', { unit: 'applications', stream, now: () => clock });
  progress.advance(5);
  clock = 125_000;
  progress.advance(7);
  progress.finish('store compacted');
  assert.deepEqual(lines, ['erasing: 12 applications in 2 min 05 s, 0/s; store compacted\n']);
});

test('without a total there is no time left, and long work reads in hours', () => {
  let clock = 0;
  const { lines, stream } = fakeStream(true);
  const progress = startProgress('seeding', { stream, now: () => clock });
  clock = 2 * 3_600_000 + 5 * 60_000;
  progress.advance(7_500_000);
  progress.finish();
  assert.deepEqual(lines, [
    'seeding: 7,500,000 rows (1,000/s)\n',
    'seeding: 7,500,000 rows in 2 h 05 min, 1,000/s\n',
  ]);
});
