import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { budgetMs } from './budget.ts';

const BIN = fileURLToPath(new URL('../../bin/cardapply.js', import.meta.url));

/** `cardapply worker` as a separate process, as it runs in production. */
export interface WorkerProcess {
  readonly child: ChildProcess;
  readonly workerId: string;
  readonly output: string[];
  readonly exited: Promise<number | null>;
}

export async function spawnWorker(env: Record<string, string>): Promise<WorkerProcess> {
  const child = spawn(process.execPath, [BIN, 'worker'], {
    env: { ...process.env, ...env, LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  createInterface({ input: child.stderr! }).on('line', (line) => output.push(line));
  const workerId = await new Promise<string>((resolve, reject) => {
    // A ceiling for the start, derived from the machine's load (a cold start takes 1-2 s idle).
    const ceiling = budgetMs(10_000);
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`worker did not start within ${ceiling} ms:\n${output.join('\n')}`));
    }, ceiling);
    createInterface({ input: child.stdout! }).on('line', (line) => {
      output.push(line);
      const parsed = JSON.parse(line) as { msg?: string; worker?: string };
      if (parsed.msg === 'worker running' && parsed.worker !== undefined) {
        clearTimeout(timer);
        resolve(parsed.worker);
      }
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`worker exited with ${code}:\n${output.join('\n')}`));
    });
  });
  return { child, workerId, output, exited };
}

/** SIGTERM, and the exit code of the graceful stop. */
export async function stopWorker(worker: WorkerProcess): Promise<number | null> {
  if (worker.child.exitCode === null && worker.child.signalCode === null) worker.child.kill('SIGTERM');
  return worker.exited;
}
