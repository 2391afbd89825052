import pg from 'pg';

/**
 * What PostgreSQL writes for a run, from its write-ahead log: the log's position before and after
 * (a figure the machine's noise does not move), and with the pg_walinspect extension (contrib,
 * shipped with the server) the records between them by table and index, so that the cost of each
 * row and index entry a submission writes can be read off.
 */

async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** The log's insert position, in bytes from its start. */
export async function walPosition(url: string): Promise<number> {
  return withClient(url, async (client) => {
    const { rows } = await client.query<{ at: string }>(
      `SELECT pg_wal_lsn_diff(pg_current_wal_insert_lsn(), '0/0')::text AS at`,
    );
    return Number(rows[0]!.at);
  });
}

/** One table's or index's share of the log, per request. */
export interface WalShare {
  relation: string;
  bytesPerRequest: number;
  recordsPerRequest: number;
}

/**
 * The log written between two positions in this database, by relation (commits and records of no
 * relation as one line), largest first, divided by `requests`; `unavailable`, with the reason,
 * when pg_walinspect cannot be had (it needs a superuser to create it once).
 */
export async function walByRelation(
  url: string,
  from: number,
  to: number,
  requests: number,
): Promise<WalShare[] | { unavailable: string }> {
  return withClient(url, async (client) => {
    try {
      await client.query('CREATE EXTENSION IF NOT EXISTS pg_walinspect');
    } catch (error) {
      return { unavailable: `pg_walinspect: ${(error as Error).message}` };
    }
    // The block reference names tablespace/database/relfilenode; relations of other databases
    // (another test run) count as "other".
    const { rows } = await client.query<{ relation: string; records: string; bytes: string }>(
      `WITH r AS (
         SELECT record_length, regexp_match(block_ref, 'rel [0-9]+/([0-9]+)/([0-9]+)') AS m
           FROM pg_get_wal_records_info('0/0'::pg_lsn + $1::numeric,
             least('0/0'::pg_lsn + $2::numeric, pg_current_wal_flush_lsn())))
       SELECT coalesce(c.relname, '(commits, other)') AS relation, count(*)::text AS records,
              sum(record_length)::text AS bytes
         FROM r LEFT JOIN pg_class c ON c.relfilenode = (r.m)[2]::oid
           AND (r.m)[1]::oid = (SELECT oid FROM pg_database WHERE datname = current_database())
        GROUP BY 1 ORDER BY sum(record_length) DESC`,
      [from, to],
    );
    const per = (n: string, digits: number) =>
      Math.round((Number(n) / Math.max(1, requests)) * digits) / digits;
    return rows.map((row) => ({
      relation: row.relation,
      bytesPerRequest: per(row.bytes, 1),
      recordsPerRequest: per(row.records, 100),
    }));
  });
}
