import type pg from 'pg';

/**
 * PostgreSQL migrations marked `-- cardapply:concurrently` on their first line build or drop
 * indexes without blocking writes: `CREATE INDEX CONCURRENTLY IF NOT EXISTS name ON table (...)`
 * and `DROP INDEX CONCURRENTLY IF EXISTS name`, the only statements such a file may hold, each on
 * its own, outside any transaction (PostgreSQL refuses them inside one).
 *
 * With no transaction there is no transaction lock, and a session lock would not survive a pooler
 * in transaction mode: the catalog is the coordination instead. An index left invalid by a build
 * that died (a crash, a cancelled statement) is dropped and built again; one that another process
 * is building right now (in `pg_stat_progress_create_index`) is waited for. So running the file
 * twice, or from several processes at once, leaves each index built once and valid.
 *
 * A build concurrent with writes reads the table twice and waits for every older transaction of
 * the database; on tables of fewer than SMALL_TABLE rows (a new store, every test) the file runs
 * as an ordinary migration instead, in one transaction, whose lock lasts a few milliseconds.
 */
export const CONCURRENTLY_MARKER = '-- cardapply:concurrently';

const CREATE = /^CREATE (UNIQUE )?INDEX CONCURRENTLY IF NOT EXISTS ([a-z0-9_]+) ON ([a-z0-9_]+) (.+)$/s;
const DROP = /^DROP INDEX CONCURRENTLY IF EXISTS ([a-z0-9_]+)$/;
const POLL_MS = 200;
export const SMALL_TABLE = 10_000;

export function isConcurrent(sql: string): boolean {
  return sql.startsWith(CONCURRENTLY_MARKER);
}

/** The file's statements, checked: anything but the two index statements is refused. */
export function concurrentStatements(sql: string): string[] {
  const statements = sql
    .split('\n')
    .filter((line) => !line.trimStart().startsWith('--'))
    .join('\n')
    .split(';')
    .map((s) => s.trim().replace(/\s+/g, ' '))
    .filter((s) => s !== '');
  for (const statement of statements) {
    if (!CREATE.test(statement) && !DROP.test(statement)) {
      throw new Error(`not an index statement that can run concurrently: ${statement}`);
    }
  }
  return statements;
}

/** True when every table the file builds an index on has fewer than SMALL_TABLE rows. */
export async function onSmallTables(client: pg.PoolClient, schema: string, sql: string): Promise<boolean> {
  for (const statement of concurrentStatements(sql)) {
    const table = CREATE.exec(statement)?.[3];
    if (table === undefined) continue;
    const found = await client.query<{ n: string }>(
      `SELECT count(*) AS n FROM (SELECT 1 FROM "${schema}".${table} LIMIT ${SMALL_TABLE}) AS sample`,
    );
    if (Number(found.rows[0]!.n) >= SMALL_TABLE) return false;
  }
  return true;
}

/** The file as an ordinary migration, for one transaction. */
export function withoutConcurrently(sql: string): string {
  return concurrentStatements(sql)
    .map((statement) => `${statement.replace(' CONCURRENTLY', '')};`)
    .join('\n');
}

export async function runConcurrently(client: pg.PoolClient, schema: string, sql: string): Promise<void> {
  for (const statement of concurrentStatements(sql)) {
    const drop = DROP.exec(statement);
    if (drop !== null) {
      while ((await indexState(client, schema, drop[1]!)) !== undefined) {
        await racing(() => client.query(`DROP INDEX CONCURRENTLY IF EXISTS "${schema}".${drop[1]}`));
      }
      continue;
    }
    const [, unique, name, table, rest] = CREATE.exec(statement)!;
    const create = `CREATE ${unique ?? ''}INDEX CONCURRENTLY IF NOT EXISTS ${name} ON "${schema}".${table} ${rest}`;
    await settleIndex(client, schema, name!, create);
  }
}

/** Until the index exists and is valid: build it, wait for another's build, or drop a dead one. */
async function settleIndex(client: pg.PoolClient, schema: string, name: string, create: string) {
  for (;;) {
    const index = await indexState(client, schema, name);
    if (index?.valid === true) return;
    if (index === undefined) {
      await racing(() => client.query(create));
    } else if (index.building) {
      await pause();
    } else {
      await racing(() => client.query(`DROP INDEX CONCURRENTLY IF EXISTS "${schema}".${name}`));
    }
  }
}

/** Whether the index exists, is valid, and is being built right now by some session. */
async function indexState(client: pg.PoolClient, schema: string, name: string) {
  const found = await client.query<{ valid: boolean; building: boolean }>(
    `SELECT i.indisvalid AS valid,
            EXISTS (SELECT 1 FROM pg_stat_progress_create_index p WHERE p.index_relid = c.oid) AS building
       FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace JOIN pg_index i ON i.indexrelid = c.oid
      WHERE n.nspname = $1 AND c.relname = $2`,
    [schema, name],
  );
  return found.rows[0];
}

/**
 * What another process doing the same at the same moment can make a statement fail with: the name
 * taken in between (23505, 42P07), the index gone in between (42704), a deadlock between two
 * concurrent builds or drops on one table (40P01), of which PostgreSQL fails one, or two sessions
 * updating the index's one catalog row at once (two drops of one invalid index: XX000 "tuple
 * concurrently updated", PostgreSQL's internal error for a lost catalog update, not a corruption).
 * Each is settled by looking again: the failed statement left at most an invalid index, which the
 * next look drops.
 */
const RACES = new Set(['23505', '42P07', '42704', '40P01']);
const CATALOG_RACE = /^tuple concurrently (updated|deleted)$/;

function isRace(error: unknown): boolean {
  const { code, message } = error as { code?: string; message?: string };
  if (RACES.has(code ?? '')) return true;
  return code === 'XX000' && CATALOG_RACE.test(message ?? '');
}

async function racing(statement: () => Promise<unknown>): Promise<void> {
  try {
    await statement();
  } catch (error) {
    if (!isRace(error)) throw error;
    await pause();
  }
}

/** A little longer for each process, so that racing ones fall out of step. */
const pause = () => new Promise((resolve) => setTimeout(resolve, POLL_MS / 2 + Math.random() * POLL_MS));
