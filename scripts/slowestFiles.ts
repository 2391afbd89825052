import { relative } from 'node:path';

/**
 * A second reporter for `npm test` (beside `spec`): once the run is over, the test files that took
 * longest, so that whoever wants the suite faster starts where the time goes. A file's time is the
 * wall time from its first reported event to its last (the child process's start and its imports
 * before the first `test()` are not in it); two files run at once, so the times add up to about
 * twice the run's length. `SLOWEST_FILES=0` turns the list off.
 */
interface FileEvent {
  type: string;
  data: { file?: string };
}

const SHOWN = Number(process.env['SLOWEST_FILES'] ?? 15);

export default async function* slowestFiles(source: AsyncIterable<FileEvent>): AsyncGenerator<string> {
  const spans = new Map<string, { first: number; last: number }>();
  for await (const event of source) {
    const file = event.data.file;
    if (file === undefined) continue;
    const now = performance.now();
    const span = spans.get(file);
    if (span === undefined) spans.set(file, { first: now, last: now });
    else span.last = now;
  }
  if (SHOWN <= 0 || spans.size === 0) return;
  const slowest = [...spans]
    .map(([file, span]) => ({
      file: relative(process.cwd(), file),
      seconds: (span.last - span.first) / 1000,
    }))
    .sort((a, b) => b.seconds - a.seconds)
    .slice(0, SHOWN);
  const total = [...spans.values()].reduce((sum, span) => sum + (span.last - span.first) / 1000, 0);
  yield `\nslowest test files (wall seconds from first to last event; ${spans.size} files, ${Math.round(total)} s in all):\n`;
  for (const { file, seconds } of slowest) yield `${seconds.toFixed(1).padStart(8)}  ${file}\n`;
}
