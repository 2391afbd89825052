import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { budgetMs } from './budget.ts';

const MAIN = fileURLToPath(new URL('../../bin/server.js', import.meta.url));

/** The service as a separate process (the way it runs in production), on a free port. */
export interface ServiceProcess {
  readonly child: ChildProcess;
  readonly baseUrl: string;
  /** Every line the process wrote on stdout and stderr. */
  readonly output: string[];
  exited: Promise<number | null>;
}

/** `main`: another checkout's server (an earlier release, in a rolling deploy); this one's by default. */
export async function spawnService(env: Record<string, string>, main = MAIN): Promise<ServiceProcess> {
  const child = spawn(process.execPath, [main], {
    // As in startService: no per-app rate limit or concurrency cap unless the test sets one.
    env: {
      ...process.env,
      RATE_LIMIT_PER_SECOND: '1000000',
      RATE_LIMIT_BURST: '1000000',
      APP_CONCURRENCY_LIMIT: '1000000',
      ...env,
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  let signal: NodeJS.Signals | null = null;
  // 'close', not 'exit': it comes once stdout and stderr are read to their end, so a process that
  // dies at start is reported with its last lines (a V8 fatal error, say), not before them.
  const exited = new Promise<number | null>((resolve) =>
    child.once('close', (code, by) => {
      signal = by;
      resolve(code);
    }),
  );
  createInterface({ input: child.stderr! }).on('line', (line) => output.push(line));
  const baseUrl = await new Promise<string>((resolve, reject) => {
    // A ceiling for the start, derived from the machine's load (a cold start takes 1-2 s idle).
    const ceiling = budgetMs(10_000);
    const timer = setTimeout(
      () => reject(new Error(`service did not start within ${ceiling} ms:\n${output.join('\n')}`)),
      ceiling,
    );
    createInterface({ input: child.stdout! }).on('line', (line) => {
      output.push(line);
      const url = (JSON.parse(line) as { url?: string; msg?: string }).url;
      if (url !== undefined) {
        clearTimeout(timer);
        resolve(url);
      }
    });
    void exited.then((code) => {
      // A start that fails ends the wait, and its ceiling with it: a pending timer would keep the
      // test file's process alive for the whole ceiling after its last test.
      clearTimeout(timer);
      const how = signal === null ? `exited with ${code}` : `was ended by ${signal}`;
      reject(new Error(`service ${how} before it listened:\n${output.join('\n')}`));
    });
  });
  return { child, baseUrl, output, exited };
}
