import type { Config } from '../config.ts';
import { openPostgres } from './postgres.ts';
import { openSqlite } from './sqlite.ts';
import type { Store, StoreOptions } from './store.ts';

export { SQLITE_FILE } from './sqlite.ts';
export type { ConnectionBudget, Store, StoreOptions } from './store.ts';
export type { StoreKind } from './statements.ts';
export type { SubmissionCompletion, SubmissionOutcome, SubmissionRows } from './submissions.ts';

export function openStore(config: Config, options: StoreOptions = {}): Store {
  return config.databaseUrl === undefined ? openSqlite(config.dataDir) : openPostgres(config, options);
}
