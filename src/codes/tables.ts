import { readFileSync } from 'node:fs';
import { TABLE_NAMES, type CodeEntry, type CodeTables, type TableName } from './codeEntries.ts';
import { DEFAULT_CODE_TABLES } from './defaultTables.ts';

/**
 * The code tables: country, position, profession (industry), purpose, wealth source and reason (why
 * an operator rejected, asked for more or had a shipment returned). The service
 * ships documented defaults (`defaultTables.ts`); an operator may replace any of them with a JSON
 * file (`CODES_FILE`). The codes endpoint serves the tables in force, in the wire form `CodeTables`.
 */

export { TABLE_NAMES, type CodeEntry, type CodeTables, type TableName } from './codeEntries.ts';

/** One table, ready for lookups. */
export interface CodeTable {
  readonly name: TableName;
  readonly entries: readonly CodeEntry[];
  readonly byCode: ReadonlyMap<string, CodeEntry>;
  /** The code meaning "other", when the table has one. */
  readonly otherCode: string | undefined;
}

/** The tables in force, built once at start. `tables` is what the codes endpoint serves. */
export type LoadedCodeTables = { readonly [K in TableName]: CodeTable } & {
  readonly tables: CodeTables;
  /** Where the tables came from: `default`, or the replacement file's path. */
  readonly source: string;
};

/** A code table file (or table list) that cannot be used; the message names the problem. */
export class CodeTablesError extends Error {
  override readonly name = 'CodeTablesError';
}

/** Codes: letters, digits, `_` and `-`, at most 16 characters (the request schema's limit). */
const CODE_PATTERN = /^[A-Za-z0-9_-]{1,16}$/;
/** Reason codes are words (`document_unreadable`): up to 32 characters. */
const REASON_PATTERN = /^[A-Za-z0-9_-]{1,32}$/;
/** Country codes are ISO 3166-1 alpha-2: identity checks rely on `CN` and `HK` meaning what they say. */
const COUNTRY_PATTERN = /^[A-Z]{2}$/;
const MAX_NAME = 128;
const ENTRY_KEYS = new Set(['code', 'name', 'name_zh', 'other']);

/**
 * Validate a set of tables and index them. Rules: every table is a non-empty list of
 * `{code, name, name_zh, other?}` objects (no other members); codes are unique within a table and
 * match `[A-Za-z0-9_-]{1,16}` (country codes: two capital letters); names are non-empty strings of at
 * most 128 characters; at most one entry per table has `other: true`.
 */
export function buildCodeTables(input: unknown, source = 'default'): LoadedCodeTables {
  const where = source === 'default' ? 'default code tables' : `code tables file ${source}`;
  const fail = (path: string, problem: string): never => {
    throw new CodeTablesError(`${where}: ${path}: ${problem}`);
  };
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    return fail('(top level)', 'must be a JSON object with the tables as members');
  }
  const record = input as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    if (!(TABLE_NAMES as readonly string[]).includes(key)) {
      fail(key, `is not a table; the tables are ${TABLE_NAMES.join(', ')}`);
    }
  }
  const built = {} as Record<TableName, CodeTable>;
  const wire = {} as Record<TableName, readonly CodeEntry[]>;
  for (const table of TABLE_NAMES) {
    const list = record[table];
    if (list === undefined) fail(table, 'is missing');
    if (!Array.isArray(list) || list.length === 0) fail(table, 'must be a non-empty array of codes');
    const entries: CodeEntry[] = [];
    const byCode = new Map<string, CodeEntry>();
    let otherCode: string | undefined;
    (list as unknown[]).forEach((item, index) => {
      const path = `${table}[${index}]`;
      if (typeof item !== 'object' || item === null || Array.isArray(item)) {
        fail(path, 'must be an object {code, name, name_zh, other}');
      }
      const raw = item as Record<string, unknown>;
      for (const key of Object.keys(raw)) {
        if (!ENTRY_KEYS.has(key))
          fail(`${path}.${key}`, 'is not a known member (code, name, name_zh, other)');
      }
      const { code, name, name_zh: nameZh, other = false } = raw;
      const pattern =
        table === 'country' ? COUNTRY_PATTERN : table === 'reason' ? REASON_PATTERN : CODE_PATTERN;
      if (typeof code !== 'string' || !pattern.test(code)) {
        fail(
          `${path}.code`,
          table === 'country'
            ? 'must be an ISO 3166-1 alpha-2 code (two capital letters)'
            : `must be 1-${table === 'reason' ? 32 : 16} letters, digits, _ or -`,
        );
      }
      for (const [key, value] of [
        ['name', name],
        ['name_zh', nameZh],
      ] as const) {
        if (typeof value !== 'string' || value.trim() === '' || value.length > MAX_NAME) {
          fail(`${path}.${key}`, `must be a non-empty string of at most ${MAX_NAME} characters`);
        }
      }
      if (typeof other !== 'boolean') fail(`${path}.other`, 'must be true or false');
      const entry: CodeEntry = Object.freeze({
        code: code as string,
        name: name as string,
        name_zh: nameZh as string,
        other: other as boolean,
      });
      if (byCode.has(entry.code)) fail(`${path}.code`, `duplicates code ${entry.code}`);
      if (entry.other) {
        if (otherCode !== undefined)
          fail(`${path}.other`, `only one code may mean "other" (${otherCode} does)`);
        otherCode = entry.code;
      }
      byCode.set(entry.code, entry);
      entries.push(entry);
    });
    Object.freeze(entries);
    built[table] = Object.freeze({ name: table, entries, byCode, otherCode });
    wire[table] = entries;
  }
  return Object.freeze({ ...built, tables: Object.freeze(wire), source });
}

let defaults: LoadedCodeTables | undefined;

/** The shipped default tables, indexed (built once). */
export function defaultCodeTables(): LoadedCodeTables {
  defaults ??= buildCodeTables(DEFAULT_CODE_TABLES);
  return defaults;
}

/**
 * The tables in force: the defaults, or the replacement file (`CODES_FILE`). The file is a JSON object
 * with any of the six tables as members; a table it omits keeps its default. Called once at start;
 * throws `CodeTablesError` naming the file and the problem (unreadable, not JSON, bad entry,
 * duplicate code, more than one "other" code).
 */
export function loadCodeTables(file?: string): LoadedCodeTables {
  if (file === undefined || file === '') return defaultCodeTables();
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const reason = error instanceof Error && 'code' in error ? String(error.code) : 'unreadable';
    throw new CodeTablesError(`code tables file ${file}: cannot be read (${reason})`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new CodeTablesError(
      `code tables file ${file}: is not valid JSON (${error instanceof Error ? error.message : 'parse error'})`,
    );
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new CodeTablesError(
      `code tables file ${file}: (top level): must be a JSON object with the tables as members`,
    );
  }
  return buildCodeTables({ ...DEFAULT_CODE_TABLES, ...parsed }, file);
}
