import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { POSTGRES_BIN } from '../../helpers/privatePostgres.ts';

/**
 * Searches the raw stores and the logs of a run for identity values in the clear: the SQLite file
 * with its WAL (and every other file in the data directory), a `pg_dump` of a schema, and log lines.
 * Returns one line per value found, naming where (never the value itself, which is identity data).
 */
export interface LeakSearch {
  /** Identity values that were sent: identity numbers, phones, e-mails, card numbers. */
  values: Iterable<string>;
  sqliteDirs?: string[];
  postgres?: { url: string; schema: string }[];
  logs?: string[];
}

export function findLeaks(search: LeakSearch): string[] {
  const values = [...new Set(search.values)].filter((v) => v.length >= 6);
  const found: string[] = [];
  const look = (haystack: Buffer, where: string) => {
    const hits = values.filter((value) => haystack.includes(Buffer.from(value, 'utf8')));
    if (hits.length > 0) found.push(`${where}: ${hits.length} identity values in the clear`);
  };
  for (const dir of search.sqliteDirs ?? []) {
    if (!existsSync(dir)) continue;
    for (const file of readdirSync(dir)) look(readFileSync(join(dir, file)), `${dir}/${file}`);
  }
  for (const location of search.postgres ?? []) look(pgDump(location), `pg_dump of ${location.schema}`);
  if (search.logs !== undefined) look(Buffer.from(search.logs.join('\n'), 'utf8'), 'the logs');
  return found;
}

function pgDump(location: { url: string; schema: string }): Buffer {
  const url = new URL(location.url);
  const local = POSTGRES_BIN === undefined ? undefined : join(POSTGRES_BIN, 'pg_dump');
  const bin = local !== undefined && existsSync(local) ? local : 'pg_dump';
  const dump = execFileSync(
    bin,
    [
      '--no-owner',
      '-n',
      location.schema,
      '-h',
      url.hostname,
      '-p',
      url.port || '5432',
      '-U',
      url.username || 'postgres',
      url.pathname.slice(1) || 'postgres',
    ],
    { maxBuffer: 512 * 1024 * 1024 },
  );
  if (!dump.includes(Buffer.from('CREATE TABLE'))) throw new Error('pg_dump produced no tables');
  return dump;
}

/** The identity values of an application that must never rest or be logged in the clear. */
export function identityValues(application: Record<string, unknown>): string[] {
  const fields = ['cert_id', 'mob_no', 'consignee_mob_no', 'email', 'card_no', 'office_tel_no'];
  return fields.map((f) => application[f]).filter((v): v is string => typeof v === 'string');
}
