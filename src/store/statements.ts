/**
 * Hand-written SQL for the few statements on the hot path. The query builder costs more CPU per
 * request than the statement costs the database; these are written once, in `?` form with tables
 * in braces (`{applications}`), and bound per call. The store names the tables: schema-qualified
 * on PostgreSQL (no statement depends on a session's search_path, which a pooler does not keep).
 */
/** The two stores: the dialect a statement is written for. */
export type StoreKind = 'sqlite' | 'postgres';

export interface Statement {
  /** Names the statement: the prepared statement's name where the store prepares them. */
  readonly name: string;
  /** The text for SQLite: `?` parameters, bare table names. */
  readonly sqlite: string;
  /** The text for PostgreSQL: `$n` parameters, tables still in braces for the store to qualify. */
  readonly postgres: string;
}

const TABLE = /\{([a-z_]+)\}/g;

export function statement(name: string, text: string): Statement {
  let n = 0;
  return {
    name,
    sqlite: text.replace(TABLE, '$1'),
    postgres: text.replace(/\?/g, () => `$${++n}`),
  };
}

/** The PostgreSQL text of a statement with its tables in `schema`. */
export function qualified(text: string, schema: string): string {
  return text.replace(TABLE, `"${schema}"."$1"`);
}
