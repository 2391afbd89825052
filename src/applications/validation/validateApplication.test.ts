import assert from 'node:assert/strict';
import { test } from 'node:test';
import { defaultCodeTables } from '../../codes/tables.ts';
import { uniqueApplicant } from '../../../test/helpers/applicants.ts';
import { promotedBytes } from '../../../test/helpers/promoted.ts';
import { DEFAULT_MIN_AGE } from './checks/index.ts';
import { validateApplication, type ValidationContext } from './validateApplication.ts';

/**
 * What validating a request allocates dies young (test/helpers/promoted.ts says why that matters):
 * about 1 KB a validation was promoted when the canonical reading was cached in a WeakMap keyed by
 * the request, next to nothing without.
 */
test('validation promotes nothing of a request to the old generation', async () => {
  const ctx: ValidationContext = {
    now: new Date(),
    timeZone: 'Asia/Shanghai',
    minAge: DEFAULT_MIN_AGE,
    codes: defaultCodeTables(),
    card: { bin: '622848', length: 16 },
  };
  // Bodies as the transport hands them over: parsed from the wire, one object each.
  const bodies = Array.from({ length: 3_000 }, (_, n) => JSON.stringify(uniqueApplicant(n, 'app_promotion')));
  // Warm up first, so that code, lazily built tables and bounded caches are in place.
  for (const body of bodies.slice(0, 500)) validateApplication(JSON.parse(body), ctx);

  const promoted = await promotedBytes('applications/validation/validateApplication.ts', () => {
    for (const body of bodies) validateApplication(JSON.parse(body), ctx);
  });
  assert.ok(
    promoted < 100 * bodies.length,
    `validation kept ${Math.round(promoted / bodies.length)} bytes a request past the scavenges`,
  );
});
