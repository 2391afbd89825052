import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

/** A server under test, as its own process: the service as shipped, or the floor. */
export interface Server {
  child: ChildProcess;
  url: string;
  /** Milliseconds from spawn to the line announcing its address. */
  startMs: number;
  stop(): Promise<void>;
  /** Peak resident set size so far, in MB (VmHWM). */
  peakRssMb(): number;
}

const ROOT = fileURLToPath(new URL('..', import.meta.url));

export async function startServer(script: 'service' | 'floor', env: Record<string, string>): Promise<Server> {
  const file = script === 'service' ? `${ROOT}src/main.ts` : `${ROOT}bench/floor.ts`;
  const started = performance.now();
  const child = spawn(process.execPath, [file], {
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  createInterface({ input: child.stderr! }).on('line', (line) => output.push(line));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`${script} did not start:\n${output.join('\n')}`)),
      30_000,
    );
    // Every stdout line is read (a full pipe would block the server); the first with a url wins.
    createInterface({ input: child.stdout! }).on('line', (line) => {
      if (!line.includes('"url"')) return;
      const parsed = JSON.parse(line) as { url?: string };
      if (parsed.url !== undefined) {
        clearTimeout(timer);
        resolve(parsed.url);
      }
    });
    void exited.then(() => reject(new Error(`${script} exited:\n${output.join('\n')}`)));
  });
  const startMs = performance.now() - started;
  return {
    child,
    url,
    startMs,
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
    },
    peakRssMb: () => {
      const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
      const kb = Number(/VmHWM:\s+([0-9]+) kB/.exec(status)?.[1] ?? 0);
      return Math.round(kb / 102.4) / 10;
    },
  };
}
