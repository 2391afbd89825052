import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { COMPONENTS, hasComponent, skipWithout } from './components.ts';
import { startPgBouncer, type PgBouncer } from './pgbouncer.ts';

/**
 * The stores every storing test runs on: SQLite always, PostgreSQL whenever DATABASE_URL is set.
 * Each target is private to its test: a fresh data directory, or a fresh PostgreSQL schema.
 *
 * With PGBOUNCER=1 the PostgreSQL targets go through a real PgBouncer in transaction mode, started
 * once for this test process (see pgbouncer.ts): the service must work when no session state
 * survives a transaction. Inspection from tests (dumps, integrity checks) uses `directUrl`.
 */
export interface StoreTarget {
  readonly name: 'sqlite' | 'postgres';
  /** Environment for loadConfig (and for child processes). */
  readonly env: Record<string, string>;
  readonly dataDir: string;
  readonly schema: string | undefined;
  /** PostgreSQL itself, never through the bouncer: for tools that need a session (pg_dump). */
  readonly directUrl: string | undefined;
  cleanup(): Promise<void>;
}

/** The bouncer of this test process, when PGBOUNCER=1; asked for, so without one the run stops. */
export const pgBouncer: PgBouncer | undefined =
  process.env['PGBOUNCER'] === '1' && process.env['DATABASE_URL']
    ? await startPgBouncerAsked(process.env['DATABASE_URL'])
    : undefined;

async function startPgBouncerAsked(url: string): Promise<PgBouncer> {
  if (!hasComponent('pgbouncer')) {
    const { name, install } = COMPONENTS.pgbouncer;
    throw new Error(`PGBOUNCER=1 needs ${name}; install it with: ${install}`);
  }
  return startPgBouncer(url);
}

/** A fixed test key: tests of other keys make their own. */
export const TEST_ENCRYPTION_KEYS = `t1:${Buffer.alloc(32, 7).toString('base64')}`;

/** SQLite always; PostgreSQL with DATABASE_URL (required under CI=true: see components.ts). */
export function storeNames(): ('sqlite' | 'postgres')[] {
  return skipWithout('postgres') === false ? ['sqlite', 'postgres'] : ['sqlite'];
}

export function createStoreTarget(name: 'sqlite' | 'postgres'): StoreTarget {
  const dataDir = mkdtempSync(join(tmpdir(), 'cardapply-test-'));
  // DATABASE_URL is blanked so that a child process does not inherit the shared server's. A test
  // starts with no sanctions list, as a sandbox does, and says so: SCREENING_REQUIRED=false, or
  // every approval and readiness check would fail for want of a list it is not about. The tests of
  // screening's readiness set it back to true (test/screening/readiness.http.test.ts).
  const base = { DATA_DIR: dataDir, LOG_LEVEL: 'silent', DATABASE_URL: '', SCREENING_REQUIRED: 'false' };
  if (name === 'sqlite') {
    return {
      name,
      env: base,
      dataDir,
      schema: undefined,
      directUrl: undefined,
      cleanup: async () => rmSync(dataDir, { recursive: true, force: true }),
    };
  }
  const url = process.env['DATABASE_URL'];
  if (url === undefined) throw new Error('DATABASE_URL is not set');
  const schema = `t_${randomBytes(6).toString('hex')}`;
  return {
    name,
    env: {
      ...base,
      DATABASE_URL: pgBouncer?.url ?? url,
      DATABASE_SCHEMA: schema,
      ENCRYPTION_KEYS: TEST_ENCRYPTION_KEYS,
    },
    dataDir,
    schema,
    directUrl: url,
    cleanup: async () => {
      rmSync(dataDir, { recursive: true, force: true });
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      } finally {
        await client.end();
      }
    },
  };
}
