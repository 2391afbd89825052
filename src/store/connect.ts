import type { Config } from '../config.ts';
import { openSqlite } from './sqlite.ts';
import type { Store, StoreOptions } from './store.ts';

export { SQLITE_FILE } from './sqlite.ts';
export type { ConnectionBudget, Store, StoreOptions } from './store.ts';
export type { StoreKind } from './statements.ts';
export type { SubmissionCompletion, SubmissionOutcome, SubmissionRows } from './submissions.ts';

/**
 * The configured store. The PostgreSQL store, its driver (pg) with it, is loaded only when
 * DATABASE_URL asks for it: a process on the embedded store never holds them
 * (docs/PERFORMANCE.md, "Loaded when used").
 */
export async function openStore(config: Config, options: StoreOptions = {}): Promise<Store> {
  if (config.databaseUrl === undefined) return openSqlite(config.dataDir);
  const { openPostgres } = await import('./postgres.ts');
  return openPostgres(config, options);
}
