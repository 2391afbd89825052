import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A real PgBouncer (Debian's /usr/sbin/pgbouncer) in transaction pooling mode in front of the
 * PostgreSQL of `upstreamUrl`, on a free loopback port, with its configuration in a temporary
 * directory: a server session is lent to a client for one transaction only, so anything that relies
 * on session state (named prepared statements, a session search_path, session advisory locks,
 * LISTEN) fails or goes wrong through it. Startup parameters it does not know (such as `options`)
 * are refused, as in production.
 */
export interface PgBouncer {
  readonly port: number;
  /** `upstreamUrl` with the bouncer's host and port. */
  readonly url: string;
  /** Server connections per database and user: what the clients share. */
  readonly poolSize: number;
  stop(): Promise<void>;
}

export const PGBOUNCER_BIN = process.env['PGBOUNCER_BIN'] ?? '/usr/sbin/pgbouncer';

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address !== null ? address.port : 0));
    });
  });
}

async function answers(port: number): Promise<boolean> {
  const result = spawnSync('pg_isready', ['-q', '-h', '127.0.0.1', '-p', String(port)]);
  return result.status === 0;
}

export async function startPgBouncer(
  upstreamUrl: string,
  options: { poolSize?: number } = {},
): Promise<PgBouncer> {
  const upstream = new URL(upstreamUrl);
  const poolSize = options.poolSize ?? 10;
  const dir = mkdtempSync(join(tmpdir(), 'cardapply-pgbouncer-'));
  // PgBouncer refuses to run as root; as `postgres` it must be able to read its files.
  chmodSync(dir, 0o755);
  const users = join(dir, 'users.txt');
  writeFileSync(users, `"${decodeURIComponent(upstream.username || 'postgres')}" ""\n`, { mode: 0o644 });
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    const ini = join(dir, 'pgbouncer.ini');
    writeFileSync(
      ini,
      [
        '[databases]',
        `* = host=${upstream.hostname} port=${upstream.port || '5432'}`,
        '[pgbouncer]',
        'listen_addr = 127.0.0.1',
        `listen_port = ${port}`,
        'unix_socket_dir =',
        'auth_type = trust',
        `auth_file = ${users}`,
        'pool_mode = transaction',
        'max_client_conn = 2000',
        `default_pool_size = ${poolSize}`,
        // pg sends it; PgBouncer 1.18 would otherwise refuse the connection.
        'ignore_startup_parameters = extra_float_digits',
        'log_connections = 0',
        'log_disconnections = 0',
        '',
      ].join('\n'),
      { mode: 0o644 },
    );
    const args = process.getuid?.() === 0 ? ['-u', 'postgres', ini] : [ini];
    const child: ChildProcess = spawn(PGBOUNCER_BIN, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    const output: string[] = [];
    child.stderr!.on('data', (chunk: Buffer) => output.push(chunk.toString('utf8')));
    let exited = false;
    const gone = new Promise<void>((resolve) =>
      child.once('exit', () => {
        exited = true;
        resolve();
      }),
    );
    const deadline = Date.now() + 5_000;
    while (!exited && Date.now() < deadline && !(await answers(port))) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    if (!exited && (await answers(port))) {
      // The test process may end without stop(): the bouncer goes with it.
      const kill = () => child.kill('SIGTERM');
      process.once('exit', kill);
      child.unref();
      (child.stderr as unknown as { unref?: () => void }).unref?.();
      const url = new URL(upstreamUrl);
      url.hostname = '127.0.0.1';
      url.port = String(port);
      return {
        port,
        url: url.toString(),
        poolSize,
        stop: async () => {
          process.removeListener('exit', kill);
          if (!exited) {
            // Held again, so that the process waits for the bouncer to go.
            child.ref();
            child.kill('SIGTERM');
            await gone;
          }
          rmSync(dir, { recursive: true, force: true });
        },
      };
    }
    child.kill('SIGKILL');
    await gone;
    // Another process took the port in between: try another.
    if (attempt >= 5) {
      rmSync(dir, { recursive: true, force: true });
      throw new Error(`pgbouncer did not start:\n${output.join('')}`);
    }
  }
}
