import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ERRORS } from './catalogue.ts';

/** A code names one error: two entries with one number would make a caller's mapping ambiguous. */
test('every catalogue entry has a code and a name of its own', () => {
  const entries = Object.values(ERRORS);
  const byCode = new Map<number, string[]>();
  for (const entry of entries) byCode.set(entry.code, [...(byCode.get(entry.code) ?? []), entry.name]);
  assert.deepEqual(
    [...byCode].filter(([, names]) => names.length > 1),
    [],
    'codes used by more than one entry',
  );
  assert.equal(new Set(entries.map((entry) => entry.name)).size, entries.length, 'names used twice');
});
