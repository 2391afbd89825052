import assert from 'node:assert/strict';
import { Session } from 'node:inspector/promises';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { test } from 'node:test';
import { defaultCodeTables } from '../codes/tables.ts';
import { uniqueApplicant } from '../../test/helpers/applicants.ts';
import { DEFAULT_MIN_AGE } from './checks/index.ts';
import { validateApplication, type ValidationContext } from './validateApplication.ts';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as (options: { type: 'minor'; execution: 'sync' }) => void;

interface SamplingNode {
  callFrame: { url: string };
  selfSize: number;
  children: SamplingNode[];
}

/** Sampled bytes allocated under a frame of `file` (by it or by what it called). */
function bytesUnder(node: SamplingNode, file: string, inside = false): number {
  const here = inside || node.callFrame.url.endsWith(file);
  return (
    (here ? node.selfSize : 0) + node.children.reduce((sum, child) => sum + bytesUnder(child, file, here), 0)
  );
}

/**
 * What validating a request allocates dies young. At a thousand submissions a second, anything of
 * a request kept past two scavenges (a cache keyed by the request, a WeakMap whose values V8's
 * scavenger promotes) fills the old generation, and its major collections stall every request in
 * flight. V8's own sampling heap profiler, told to forget what the scavenger frees, shows what was
 * promoted: about 1 KB a validation when the canonical reading was cached in a WeakMap, next to
 * nothing without.
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

  const session = new Session();
  session.connect();
  await session.post('HeapProfiler.startSampling', {
    samplingInterval: 1024,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: false,
  });
  for (const body of bodies) validateApplication(JSON.parse(body), ctx);
  // Two scavenges free whatever of the last requests is still young and dead.
  gc({ type: 'minor', execution: 'sync' });
  gc({ type: 'minor', execution: 'sync' });
  const { profile } = (await session.post('HeapProfiler.stopSampling')) as {
    profile: { head: SamplingNode };
  };
  session.disconnect();

  const promoted = bytesUnder(profile.head, 'applications/validateApplication.ts');
  assert.ok(
    promoted < 100 * bodies.length,
    `validation kept ${Math.round(promoted / bodies.length)} bytes a request past the scavenges`,
  );
});
