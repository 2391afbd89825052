import { execFileSync } from 'node:child_process';
import { Session } from 'node:inspector/promises';
import { fileURLToPath } from 'node:url';
import { GCProfiler, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { npmStart } from './startCommand.ts';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as (options: { type: 'minor' | 'major'; execution: 'sync' }) => void;

/** One scavenge now: what is young and unreachable is freed, what survives a second one is promoted. */
export function scavenge(): void {
  gc({ type: 'minor', execution: 'sync' });
}

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
 * The bytes that `work` allocated under a frame of `file` and that outlived two scavenges: what it
 * kept, or what something kept for it (a cache, a WeakMap's value, V8's number-to-string cache),
 * promoted to the old generation. At a thousand submissions a second, a few dozen bytes a request
 * kept that way fill the old generation, and each major collection stalls every request in flight.
 * V8's own sampling heap profiler, told to forget what the scavenger frees, counts them.
 *
 * A major collection that falls inside `work` collects the young generation's garbage too, and the
 * profiler keeps those samples (it is told to keep what major collections free, so that what was
 * promoted and died later still counts): a whole young generation's garbage, hundreds of bytes a
 * request, with nothing kept. Whether one falls there depends on timing (a loaded machine runs
 * incremental marking late), so a measurement with one in it is made again, up to five times.
 */
export async function promotedBytes(file: string, work: () => void | Promise<void>): Promise<number> {
  for (let attempt = 1; ; attempt++) {
    const measured = await measureOnce(file, work);
    if (measured.majorCollections === 0) return measured.bytes;
    if (attempt === 5) {
      throw new Error(
        `every one of ${attempt} measurements had a major collection in it; nothing can be said`,
      );
    }
  }
}

async function measureOnce(
  file: string,
  work: () => void | Promise<void>,
): Promise<{ bytes: number; majorCollections: number }> {
  // A full collection first, so that the old generation's limit is as far away as it gets.
  gc({ type: 'major', execution: 'sync' });
  const session = new Session();
  session.connect();
  await session.post('HeapProfiler.startSampling', {
    samplingInterval: 1024,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: false,
  });
  // V8's GC profiler notes each collection natively (an observer would allocate for each one).
  const collections = new GCProfiler();
  collections.start();
  await work();
  const majorCollections = collections
    .stop()
    .statistics.filter(
      (collection) => collection.gcType === 'MarkSweepCompact' || collection.gcType === 'IncrementalMarking',
    ).length;
  // Two scavenges free whatever of the last requests is still young and dead.
  scavenge();
  scavenge();
  const { profile } = (await session.post('HeapProfiler.stopSampling')) as {
    profile: { head: SamplingNode };
  };
  session.disconnect();
  return { bytes: bytesUnder(profile.head, file), majorCollections };
}

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/**
 * Runs `script` (an ES module; imports relative to the repository's root) in a fresh Node process
 * with the flags `npm start` gives the service (package.json): they size V8's heap, and with it
 * some of its caches, so what is promoted under them can differ from what is in the test runner.
 * Returns what the script printed.
 */
export function underServiceFlags(script: string): string {
  return execFileSync(process.execPath, [...npmStart().flags, '--input-type=module', '--eval', script], {
    cwd: ROOT,
    encoding: 'utf8',
  });
}
