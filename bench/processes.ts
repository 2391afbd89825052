import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { npmStart } from '../test/helpers/startCommand.ts';

/** A server under test, as its own process: the service as shipped, or the floor. */
export interface Server {
  child: ChildProcess;
  url: string;
  /** Milliseconds from spawn to the line announcing its address. */
  startMs: number;
  stop(): Promise<void>;
  /** Peak resident set size so far, in MB (VmHWM; the largest process of a cluster). */
  peakRssMb(): number;
  /** CPU time used so far (user + system), in ms, by the server and the processes it started. */
  cpuMs(): number;
  /** CPU time used so far by the server's main thread alone (its event loop), in ms. */
  loopCpuMs(): number;
}

const TICK_MS = 10; // USER_HZ is 100 on Linux

/** The process and its descendants, from /proc. */
function processTree(root: number): number[] {
  const parents = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^[0-9]+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      parents.set(Number(entry), Number(fields[1]));
    } catch {
      // gone meanwhile
    }
  }
  const tree = [root];
  for (let i = 0; i < tree.length; i++)
    for (const [pid, parent] of parents) if (parent === tree[i]) tree.push(pid);
  return tree;
}

/** CPU ms of a process (all its threads), or of one thread with `/proc/<pid>/task/<tid>`. */
function cpuMsOf(pid: number, path = `/proc/${pid}/stat`): number {
  try {
    const stat = readFileSync(path, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime and stime are fields 14 and 15 (1-based), 12 and 13 after the command
    return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
  } catch {
    return 0;
  }
}

/**
 * CPU time so far (ms) of every PostgreSQL and PgBouncer process on the machine, those that have
 * exited included: a backend or an autovacuum worker that ends during a run takes its CPU out of
 * the live processes' sum, and the postmaster, which waits for it, adds it to its children's time
 * (cutime, cstime). Without them the figure fell when a process ended, below zero in a short run.
 */
export function storeServersCpuMs(): number {
  let total = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^[0-9]+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const command = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      if (!command.startsWith('postgres') && !command.startsWith('pgbouncer')) continue;
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      // utime, stime, cutime, cstime: fields 14 to 17 (1-based), 12 to 15 after the command
      total += (Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14])) * TICK_MS;
    } catch {
      // gone meanwhile
    }
  }
  return total;
}

/**
 * The service (or floor) runs on core 0 and the load generator on core 1 (`taskset`, util-linux),
 * so that the CPU per request of each is measured without the two fighting for one core. On a
 * machine with one core, or without taskset, everything runs unpinned and the bench says so.
 */
export const PINNING = pinning();

function pinning(): { server: string[]; note: string } {
  if (process.env['BENCH_PIN'] === '0') return { server: [], note: 'unpinned (BENCH_PIN=0)' };
  const probe = spawnSync('taskset', ['-a', '-p', '-c', '1', String(process.pid)], { encoding: 'utf8' });
  if (probe.error !== undefined || probe.status !== 0) {
    return { server: [], note: 'unpinned: taskset (util-linux) missing or a single core' };
  }
  return { server: ['taskset', '-c', '0'], note: 'server pinned to core 0, load generator to core 1' };
}

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** The service as `npm start` runs it, Node flags included: `node <flags> <entry>` from package.json. */
function serviceArguments(): string[] {
  const { flags, entry } = npmStart();
  return [...flags, `${ROOT}${entry}`];
}

/** Longer than SHUTDOWN_GRACE_MS (10 s): a server still there after it is stuck, not draining. */
const STOP_TIMEOUT_MS = 20_000;

export async function startServer(script: 'service' | 'floor', env: Record<string, string>): Promise<Server> {
  const args = script === 'service' ? serviceArguments() : [`${ROOT}bench/floor.ts`];
  const started = performance.now();
  const [command, ...prefix] = [...PINNING.server, process.execPath];
  const child = spawn(command!, [...prefix, ...args], {
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
    // As a process manager stops it (systemd: TimeoutStopSec=30, then SIGKILL). Node can deadlock
    // in process.exit while a background compile job waits for a collection that will not come
    // (nodejs/node#54918: the main thread joins the platform's threads, one of them waits for it);
    // a server stopped right after a short load is the likeliest to meet it, and the smoke bench
    // once waited on one until its ceiling. Its drain and store close had finished by then.
    stop: async () => {
      child.kill('SIGTERM');
      let timer: NodeJS.Timeout | undefined;
      const stuck = new Promise<'stuck'>((resolve) => {
        timer = setTimeout(() => resolve('stuck'), STOP_TIMEOUT_MS);
      });
      if ((await Promise.race([exited, stuck])) === 'stuck') {
        console.error(`${script} did not exit ${STOP_TIMEOUT_MS / 1000} s after SIGTERM: killed`);
        child.kill('SIGKILL');
      }
      clearTimeout(timer);
      await exited;
    },
    peakRssMb: () => {
      let kb = 0;
      for (const pid of processTree(child.pid!)) {
        try {
          const status = readFileSync(`/proc/${pid}/status`, 'utf8');
          kb = Math.max(kb, Number(/VmHWM:\s+([0-9]+) kB/.exec(status)?.[1] ?? 0));
        } catch {
          // gone meanwhile
        }
      }
      return Math.round(kb / 102.4) / 10;
    },
    cpuMs: () => processTree(child.pid!).reduce((sum, pid) => sum + cpuMsOf(pid), 0),
    // The main thread's id is the process id. With WORKERS > 1, the primary's (which serves nothing).
    loopCpuMs: () => cpuMsOf(child.pid!, `/proc/${child.pid!}/task/${child.pid!}/stat`),
  };
}
