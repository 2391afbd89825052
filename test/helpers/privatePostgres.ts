import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A PostgreSQL server of the test's own (initdb into a temporary directory, on a free port), for
 * tests that stop, kill or restart the database: the shared server on 5432 is never touched.
 * The server runs as the `postgres` system user (PostgreSQL refuses to run as root); when the test
 * itself is not root it runs as the test's user.
 */
export interface PrivatePostgres {
  readonly port: number;
  readonly dataDir: string;
  /** `postgres://postgres@127.0.0.1:PORT/postgres` */
  readonly url: string;
  /** Fast shutdown (`pg_ctl stop -m fast`): connections are closed, the server exits cleanly. */
  stop(): void;
  /** Starts the server again on the same port and directory, and waits until it answers. */
  start(): void;
  /** SIGKILL of the postmaster: a crash. `start` afterwards runs crash recovery. */
  kill(): void;
  isRunning(): boolean;
  /** The server log so far. */
  log(): string;
  /** Stops the server (immediate) and removes the directory. */
  cleanup(): void;
}

export const POSTGRES_BIN = process.env['POSTGRES_BIN'] ?? findPostgresBin();

function findPostgresBin(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = spawnSync('ls', [root], { encoding: 'utf8' })
    .stdout.split('\n')
    .filter((v) => /^[0-9]+$/.test(v))
    .sort((a, b) => Number(b) - Number(a));
  for (const v of versions) if (existsSync(join(root, v, 'bin', 'initdb'))) return join(root, v, 'bin');
  return undefined;
}

const isRoot = () => process.getuid?.() === 0;

/** Whether a private server can be made here: the binaries exist and the user may run them. */
export function privatePostgresAvailable(): boolean {
  if (POSTGRES_BIN === undefined) return false;
  if (!isRoot()) return true;
  return spawnSync('id', ['postgres']).status === 0;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Runs a PostgreSQL tool as the server's user. */
function run(tool: string, args: string[]): string {
  const bin = join(POSTGRES_BIN!, tool);
  if (!isRoot()) return execFileSync(bin, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  const quoted = [bin, ...args].map((a) => `'${a.replaceAll("'", "'\\''")}'`).join(' ');
  return execFileSync('su', ['postgres', '-s', '/bin/sh', '-c', quoted], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  if (!privatePostgresAvailable()) throw new Error('no PostgreSQL binaries (set POSTGRES_BIN)');
  const dataDir = mkdtempSync(join(tmpdir(), 'cardapply-pg-'));
  if (isRoot()) {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    chownSync(dataDir, uid, gid);
  }
  chmodSync(dataDir, 0o700);
  const pgData = join(dataDir, 'data');
  const logFile = join(dataDir, 'server.log');
  run('initdb', ['-D', pgData, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8']);
  const port = await freePort();
  const options = [
    `-p ${port}`,
    `-k ${dataDir}`,
    '-c listen_addresses=127.0.0.1',
    '-c max_connections=200',
    '-c shared_buffers=32MB',
    '-c fsync=on',
  ].join(' ');

  let running = false;
  const server: PrivatePostgres = {
    port,
    dataDir,
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    start() {
      run('pg_ctl', ['-D', pgData, '-o', options, '-l', logFile, '-w', '-t', '60', 'start']);
      running = true;
    },
    stop() {
      run('pg_ctl', ['-D', pgData, '-m', 'fast', '-w', 'stop']);
      running = false;
    },
    kill() {
      const pidFile = join(pgData, 'postmaster.pid');
      if (existsSync(pidFile)) {
        const pid = Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // already gone
        }
        // The backends notice the postmaster is gone and exit; wait until the port is free.
        for (let i = 0; i < 100 && spawnSync('kill', ['-0', String(pid)]).status === 0; i++)
          spawnSync('sleep', ['0.05']);
      }
      running = false;
    },
    isRunning: () => running,
    log: () => (existsSync(logFile) ? readFileSync(logFile, 'utf8') : ''),
    cleanup() {
      if (running) {
        try {
          run('pg_ctl', ['-D', pgData, '-m', 'immediate', '-w', 'stop']);
        } catch {
          server.kill();
        }
        running = false;
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  server.start();
  // A test that ends without cleaning up (a failed assertion before its `finally`, a time-out)
  // must not leave a server behind.
  process.once('exit', () => {
    if (running) {
      try {
        run('pg_ctl', ['-D', pgData, '-m', 'immediate', '-w', 'stop']);
      } catch {
        // already gone
      }
    }
  });
  return server;
}
