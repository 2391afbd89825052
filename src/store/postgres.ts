import {
  CompiledQuery,
  Kysely,
  PostgresDialect,
  sql,
  WithSchemaPlugin,
  type SelectQueryBuilder,
} from 'kysely';
import pg from 'pg';
import type { Config } from '../config.ts';
import type { ConnectionBudget, Store, StoreOptions } from './store.ts';
import { migratePostgres, postgresMigrationStatus } from './migrate.ts';
import { copyChunksOut, copyDocumentChunks } from './postgresCopy.ts';
import { submissionBatcher } from './postgresSubmissions.ts';
import { qualified, type Statement } from './statements.ts';
import { WriteWatch } from './writeWatch.ts';
import type { Database } from './tables.ts';

// BIGINT columns hold millisecond times: they fit a double exactly, so read them as numbers.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

/**
 * PostgreSQL, directly or through a pooler in transaction mode (PgBouncer, RDS Proxy, Supavisor):
 * a connection may be another server session at every transaction, so nothing here relies on
 * session state.
 *
 * - No search_path: DATABASE_SCHEMA is written into every statement. The query builder qualifies
 *   its tables (Kysely's WithSchemaPlugin), raw SQL names them with `store.table()`, the
 *   hand-written statements are qualified once here, and migrations, which are plain SQL files, run
 *   inside their own transaction after `SET LOCAL search_path`, which ends with it.
 * - No named prepared statements unless DATABASE_PREPARED_STATEMENTS=true (a direct connection, or
 *   a pooler that tracks them such as PgBouncer 1.21+ with max_prepared_statements): pg then sends
 *   unnamed extended-protocol statements, parsed per execution, which any pooler carries.
 * - Locks are transaction-scoped (row locks, `pg_advisory_xact_lock`); no LISTEN.
 */
export function openPostgres(config: Config, options: StoreOptions): Store {
  const schema = config.databaseSchema;
  const pool = new pg.Pool({
    connectionString: config.databaseUrl,
    max: config.databasePoolSize,
    application_name: 'cardapply',
    connectionTimeoutMillis: 5_000,
    idleTimeoutMillis: 30_000,
  });
  pool.on('error', (error) => options.onBackgroundError?.(error));
  // A client in use (inside a transaction, between statements) has no pool listener: the server
  // going away would be an uncaught 'error' event and crash the process. Its next query fails
  // instead, and the pool drops it on release.
  pool.on('connect', (client) => client.on('error', (error) => options.onBackgroundError?.(error)));
  const watch = new WriteWatch();
  const db = new Kysely<Database>({
    dialect: new PostgresDialect({ pool }),
    plugins: [watch, new WithSchemaPlugin(schema)],
  });
  const texts = new Map<Statement, string>();
  const textOf = (statement: Statement): string => {
    let text = texts.get(statement);
    if (text === undefined) {
      text = qualified(statement.postgres, schema);
      texts.set(statement, text);
    }
    return text;
  };
  const run = async <R>(statement: Statement, parameters: readonly unknown[], within?: Kysely<Database>) => {
    if (within !== undefined) {
      const result = await within.executeQuery<R>(CompiledQuery.raw(textOf(statement), [...parameters]));
      return result.rows;
    }
    const result = await pool.query({
      ...(config.databasePreparedStatements ? { name: statement.name } : {}),
      text: textOf(statement),
      values: parameters as unknown[],
    });
    return result.rows as R[];
  };

  // One batch statement in flight: the next one forms meanwhile. Measured against 2 and against
  // half the pool (8): fewer, larger batches cost PostgreSQL less per submission (a batch of 32
  // costs about a seventh of 32 single inserts) and the throughput was highest.
  const submissions = submissionBatcher({ run }, { maxInFlight: 1, maxBatch: 64 });

  return {
    label: 'postgres',
    db,
    transaction: (work) => db.transaction().execute(work),
    insertSubmission: (rows, completion) => submissions.insert(rows, completion),
    groupCommitStats: () => submissions.stats(),
    skipLocked: <DB, TB extends keyof DB, O>(
      query: SelectQueryBuilder<DB, TB, O>,
      options: { of?: string; keyShare?: boolean } = {},
    ) => {
      const of = options.of as Parameters<typeof query.forUpdate>[0];
      return (options.keyShare === true ? query.forNoKeyUpdate(of) : query.forUpdate(of)).skipLocked();
    },
    skipLockedClause: sql` for update skip locked`,
    lockRows: (query) => query.forUpdate(),
    dropOldVersions: async (table) => {
      await sql`vacuum ${sql.table(`${schema}.${table}`)}`.execute(db);
      return true;
    },
    copyDocumentChunks: (rows) => copyDocumentChunks(pool, `"${schema}"."document_chunks"`, rows),
    copyChunksOut: (place) => copyChunksOut(pool, `"${schema}"."document_chunks"`, place),
    migrate: (onApplied) => migratePostgres(pool, schema, onApplied),
    migrationStatus: () => postgresMigrationStatus(pool, schema),
    ping: async () => {
      await sql`select 1`.execute(db);
    },
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    watchWrites: (tables, listener) => watch.on(tables, listener),
    table: (name) => sql.table(`${schema}.${name}`),
    run,
    connectionBudget: (processes) => connectionBudget(pool, config, processes),
    // Kysely ends the pool only if it ever used it; a process that only migrated would otherwise
    // wait for the idle time-out before it can exit.
    close: async () => {
      await db.destroy();
      if (!pool.ending) await pool.end();
    },
  };
}

/**
 * processes × DATABASE_POOL_SIZE against what the server has left. Through a pooler the server's
 * max_connections is the pooler's business (its pool size), so there is nothing to compare: a
 * pooler shows as a server port other than the one DATABASE_URL names.
 */
async function connectionBudget(
  pool: pg.Pool,
  config: Config,
  processes: number,
): Promise<ConnectionBudget | undefined> {
  const url = new URL(config.databaseUrl!);
  const { rows } = await pool.query<{
    port: number | null;
    max_connections: string;
    reserved: string;
    others: string;
  }>(
    `SELECT inet_server_port() AS port,
            current_setting('max_connections') AS max_connections,
            current_setting('superuser_reserved_connections') AS reserved,
            (SELECT count(*) FROM pg_stat_activity
              WHERE backend_type = 'client backend' AND pid <> pg_backend_pid()) AS others`,
  );
  const row = rows[0]!;
  const urlPort = Number(url.port || 5432);
  if (row.port !== null && row.port !== urlPort) return undefined;
  const maxConnections = Number(row.max_connections);
  const reserved = Number(row.reserved);
  // This process's own connection (the one asking) is part of what it wants.
  const heldByOthers = Number(row.others);
  const wanted = processes * config.databasePoolSize;
  const available = maxConnections - reserved - heldByOthers;
  return { wanted, available, maxConnections, reserved, heldByOthers, fits: wanted <= available };
}
