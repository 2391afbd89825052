/**
 * Progress of long work on stderr (`keys reencrypt`, `retention run`, `migrate`, the benchmark's
 * seeding): one line per batch with the count, the rate and the time left when stderr is a
 * terminal, and a summary line always. stdout is left alone, so `--json` output stays one JSON
 * document that scripts can read.
 */
export interface Progress {
  /** `count` more done (a batch). */
  advance(count: number): void;
  /** The summary line: what was done, in how long, at what rate. */
  finish(note?: string): void;
}

export interface ProgressOptions {
  /** How much there is in all, when known: gives `n/total` and the time left. */
  total?: number | undefined;
  /** What is counted: `rows`, `applications`, `migrations`. */
  unit?: string;
  stream?: { write(text: string): unknown; isTTY?: boolean };
  now?: () => number;
}

const number = (n: number) => Math.round(n).toLocaleString('en-US');

function duration(seconds: number): string {
  if (seconds < 60) return `${seconds.toFixed(seconds < 10 ? 1 : 0)} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min ${String(Math.round(seconds % 60)).padStart(2, '0')} s`;
  return `${Math.floor(minutes / 60)} h ${String(minutes % 60).padStart(2, '0')} min`;
}

export function startProgress(label: string, options: ProgressOptions = {}): Progress {
  const stream = options.stream ?? process.stderr;
  const now = options.now ?? (() => performance.now());
  const unit = options.unit ?? 'rows';
  const started = now();
  let done = 0;
  const rate = () => {
    const seconds = (now() - started) / 1000;
    return seconds > 0 ? done / seconds : 0;
  };
  return {
    advance(count) {
      done += count;
      if (stream.isTTY !== true) return;
      const perSecond = rate();
      const total = options.total;
      const of = total === undefined ? '' : `/${number(total)}`;
      const left =
        total !== undefined && perSecond > 0 && total > done
          ? `, ${duration((total - done) / perSecond)} left`
          : '';
      stream.write(`${label}: ${number(done)}${of} ${unit} (${number(perSecond)}/s${left})\n`);
    },
    finish(note) {
      const seconds = (now() - started) / 1000;
      const perSecond = seconds > 0 ? `, ${number(rate())}/s` : '';
      const tail = note === undefined ? '' : `; ${note}`;
      stream.write(`${label}: ${number(done)} ${unit} in ${duration(seconds)}${perSecond}${tail}\n`);
    },
  };
}
