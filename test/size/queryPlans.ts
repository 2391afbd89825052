import { DatabaseSync } from 'node:sqlite';
import type { Kysely } from 'kysely';
import pg from 'pg';

/**
 * Every statement the service runs while a request is served, and what the planner makes of it at
 * size: no full scan of a large table, and (PostgreSQL, where EXPLAIN ANALYZE tells) no node that
 * reads or sorts more rows than a few pages.
 */
export const LARGE_TABLES = ['applications', 'events', 'deliveries', 'delivery_attempts', 'audit_log'];
/** More rows than any page (at most 200 deliveries, 100 applications) and its neighbours. */
export const MAX_ROWS_READ = 2_000;

export interface Captured {
  sql: string;
  parameters: readonly unknown[];
}

/**
 * Records the statements of this process until `stop()`: on PostgreSQL every query of a pg client
 * (the query builder's and the hand-written ones); on SQLite every query of the query builder
 * (the submit writer thread runs only unique-index probes and inserts).
 */
export function captureStatements(db: Kysely<never>, storeName: 'sqlite' | 'postgres') {
  const captured: Captured[] = [];
  if (storeName === 'postgres') {
    const prototype = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
    const original = prototype.query;
    prototype.query = function (this: unknown, ...args: unknown[]) {
      const [first, second] = args;
      if (typeof first === 'string') captured.push({ sql: first, parameters: (second as unknown[]) ?? [] });
      else if (typeof first === 'object' && first !== null && 'text' in first) {
        const config = first as { text: string; values?: unknown[] };
        captured.push({ sql: config.text, parameters: config.values ?? [] });
      }
      return original.apply(this, args);
    };
    return { captured, stop: () => void (prototype.query = original) };
  }
  let prototype = Object.getPrototypeOf(db.getExecutor()) as Record<string, unknown>;
  while (!Object.hasOwn(prototype, 'executeQuery')) prototype = Object.getPrototypeOf(prototype);
  const original = prototype['executeQuery'] as (...args: unknown[]) => unknown;
  prototype['executeQuery'] = function (this: unknown, ...args: unknown[]) {
    const query = args[0] as { sql: string; parameters: readonly unknown[] };
    captured.push({ sql: query.sql, parameters: query.parameters });
    return original.apply(this, args);
  };
  return { captured, stop: () => void (prototype['executeQuery'] = original) };
}

const PLANNED = /^\s*(select|with|update|delete)\b/i;
const READ_ONLY = /^\s*(select|with(?![\s\S]*\b(insert|update|delete)\b))/i;

/** What is wrong with the plans of these statements at size; empty when nothing is. */
export async function planProblemsPostgres(pool: pg.Pool, statements: Captured[]): Promise<string[]> {
  const problems: string[] = [];
  for (const { sql, parameters } of statements) {
    if (!PLANNED.test(sql)) continue;
    const analyze = READ_ONLY.test(sql);
    const result = await pool.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(
      `EXPLAIN (${analyze ? 'ANALYZE, ' : ''}FORMAT JSON) ${sql}`,
      [...parameters],
    );
    walk(result.rows[0]!['QUERY PLAN'][0].Plan, (node) => {
      const table = node['Relation Name'];
      const read =
        ((node['Actual Rows'] ?? 0) + (node['Rows Removed by Filter'] ?? 0)) * (node['Actual Loops'] ?? 1);
      // Analysed, a sequential scan is judged by what it read (an empty table is scanned, rightly).
      const scanned = !analyze || read > MAX_ROWS_READ;
      if (
        node['Node Type'] === 'Seq Scan' &&
        table !== undefined &&
        LARGE_TABLES.includes(table) &&
        scanned
      ) {
        problems.push(`sequential scan of ${table}: ${oneLine(sql)}`);
      } else if (analyze && table !== undefined && LARGE_TABLES.includes(table) && read > MAX_ROWS_READ) {
        problems.push(`${read} rows of ${table} read (${node['Node Type']}): ${oneLine(sql)}`);
      } else if (node['Node Type'] === 'Sort' && analyze && (node['Actual Rows'] ?? 0) > MAX_ROWS_READ) {
        problems.push(`sort of ${node['Actual Rows']} rows: ${oneLine(sql)}`);
      }
    });
  }
  return problems;
}

/** SQLite tells no row counts: a SCAN of a large table (not a SEARCH) is the problem. */
export function planProblemsSqlite(file: string, statements: Captured[]): string[] {
  const database = new DatabaseSync(file, { readOnly: true });
  const problems: string[] = [];
  try {
    for (const { sql, parameters } of statements) {
      if (!PLANNED.test(sql)) continue;
      const rows = database.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...(parameters as never[])) as {
        detail: string;
      }[];
      const limited = /\blimit\b/i.test(sql);
      for (const { detail } of rows) {
        const scan = /^SCAN (\w+)( USING (COVERING )?INDEX \w+)?/.exec(detail);
        if (scan === null || !LARGE_TABLES.includes(scan[1]!)) continue;
        // An index walked in the order of a LIMITed query stops at the page: not a problem.
        const sorted = rows.some((r) => r.detail.startsWith('USE TEMP B-TREE'));
        if (scan[2] === undefined || !limited || sorted) problems.push(`${detail}: ${oneLine(sql)}`);
      }
    }
  } finally {
    database.close();
  }
  return problems;
}

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Actual Rows'?: number;
  'Actual Loops'?: number;
  'Rows Removed by Filter'?: number;
  Plans?: PlanNode[];
}

function walk(node: PlanNode, visit: (node: PlanNode) => void): void {
  visit(node);
  for (const child of node.Plans ?? []) walk(child, visit);
}

const oneLine = (sql: string) => sql.replace(/\s+/g, ' ').slice(0, 240);
