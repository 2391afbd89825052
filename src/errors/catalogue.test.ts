import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { test } from 'node:test';
import { ERRORS } from './catalogue.ts';

/** A code names one error: two entries with one number would make a partner's mapping ambiguous. */
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

/** The catalogue spreads its families: a name defined in two of them would keep only the last. */
test('every family file is in the catalogue, and no name is in two families', async () => {
  const dir = new URL('./catalogue/', import.meta.url);
  const names: string[] = [];
  for (const file of readdirSync(dir).filter((name) => name.endsWith('Errors.ts'))) {
    const family = (await import(new URL(file, dir).href)) as Record<string, object>;
    for (const entries of Object.values(family)) names.push(...Object.keys(entries));
  }
  assert.deepEqual(names.sort(), Object.keys(ERRORS).sort());
});
