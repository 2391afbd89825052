import { CompiledQuery, type Kysely } from 'kysely';
import type { Database } from './tables.ts';

/**
 * Hand-written SQL for the few statements on the hot path. The query builder costs more CPU per
 * request than the statement costs the database; these are written once, in `?` form, and bound
 * per call. They still run through Kysely's driver, so transactions and the SQLite mutex apply.
 */
/** The two stores: the dialect a statement is written for. */
export type StoreKind = 'sqlite' | 'postgres';

export interface Statement {
  /** Names the prepared statement on PostgreSQL; unique per statement text. */
  readonly name: string;
  readonly sqlite: string;
  readonly postgres: string;
}

export function statement(name: string, text: string): Statement {
  let n = 0;
  return { name, sqlite: text, postgres: text.replace(/\?/g, () => `$${++n}`) };
}

export async function runStatement<R>(
  db: Kysely<Database>,
  kind: StoreKind,
  sql: Statement,
  parameters: readonly unknown[],
): Promise<R[]> {
  const result = await db.executeQuery<R>(CompiledQuery.raw(sql[kind], parameters as unknown[]));
  return result.rows;
}
