import { relative } from 'node:path';

/**
 * A second reporter for `npm test` (beside `spec`): once the run is over, the test files that took
 * longest, so that whoever wants the suite faster starts where the time goes. A file's time is the
 * sum of its top-level tests' durations (the child process's start and its imports before the first
 * test are not in it); two files run at once, so the times add up to about twice the run's length.
 * `SLOWEST_FILES=0` turns the list off.
 */
interface TestEvent {
  type: string;
  data: { file?: string; nesting?: number; details?: { duration_ms?: number } };
}

const SHOWN = Number(process.env['SLOWEST_FILES'] ?? 15);

export default async function* slowestFiles(source: AsyncIterable<TestEvent>): AsyncGenerator<string> {
  const seconds = new Map<string, number>();
  for await (const event of source) {
    if (event.type !== 'test:pass' && event.type !== 'test:fail') continue;
    const { file, nesting, details } = event.data;
    if (file === undefined || nesting !== 0 || details?.duration_ms === undefined) continue;
    seconds.set(file, (seconds.get(file) ?? 0) + details.duration_ms / 1000);
  }
  if (SHOWN <= 0 || seconds.size === 0) return;
  const slowest = [...seconds]
    .map(([file, time]) => ({ file: relative(process.cwd(), file), time }))
    .sort((a, b) => b.time - a.time)
    .slice(0, SHOWN);
  const total = [...seconds.values()].reduce((sum, time) => sum + time, 0);
  yield `\nslowest test files (seconds of their top-level tests; ${seconds.size} files, ${Math.round(total)} s in all):\n`;
  for (const { file, time } of slowest) yield `${time.toFixed(1).padStart(8)}  ${file}\n`;
}
