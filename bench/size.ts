import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import pg from 'pg';
import { PATHS } from '../src/http/paths.ts';
import { SQLITE_FILE } from '../src/store/connect.ts';
import { uniqueApplicant } from '../test/helpers/applicants.ts';
import { growPostgres, growSqlite } from '../test/size/growTables.ts';
import { load } from './load.ts';

/**
 * The `size` part: submit, the duplicate flood, the status query, the list and the events list,
 * each as fast as 32 connections go, on an empty store and on one grown to `count` applications by
 * the size test's fixture (a year of history, events, deliveries and audit rows; the partner owns
 * all of it). The figure that matters is the ratio of the two.
 */
export type SizeLoads = Record<'submit' | 'duplicate' | 'query' | 'list' | 'events', number>;

export async function growStore(env: Record<string, string>, appId: string, count: number): Promise<number> {
  const started = performance.now();
  const growth = { count, apps: [appId], operator: 'operator:bench', now: Date.now() };
  if (env['DATABASE_URL'] === '') {
    const database = new DatabaseSync(join(env['DATA_DIR']!, SQLITE_FILE));
    try {
      growSqlite(database, growth);
    } finally {
      database.close();
    }
  } else {
    const pool = new pg.Pool({ connectionString: env['DATABASE_URL'], max: 1 });
    try {
      await growPostgres(pool, env['DATABASE_SCHEMA']!, growth);
    } finally {
      await pool.end();
    }
  }
  return Math.round(performance.now() - started) / 1000;
}

let applicants = 5_000_000;

/** Requests per second of each load against a running service, for its partner. */
export async function sizeLoads(
  url: string,
  partner: { appId: string; token: string },
  seconds: number,
  warmupSeconds: number,
): Promise<SizeLoads> {
  const headers = { authorization: partner.token };
  const duplicate = JSON.stringify(uniqueApplicant(applicants++, partner.appId));
  const first = await fetch(`${url}${PATHS.apply}`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: duplicate,
  });
  const serial = ((await first.json()) as { data: { busi_water_no: string } }).data.busi_water_no;
  const signed = (body: Record<string, unknown>) => () =>
    JSON.stringify({ app_id: partner.appId, timestamp: Math.floor(Date.now() / 1000), ...body });
  // Each load first runs unmeasured on the fresh process, as the other parts' loads do: without it
  // the first load measured the JIT's warm-up (SQLite submit 366 requests/s against ~1,300 warm).
  const rps = async (path: string, body: () => string) => {
    if (warmupSeconds > 0) await load({ url, path, headers, body, seconds: warmupSeconds });
    return Math.round((await load({ url, path, headers, body, seconds })).rps);
  };
  return {
    submit: await rps(PATHS.apply, () => JSON.stringify(uniqueApplicant(applicants++, partner.appId))),
    duplicate: await rps(PATHS.apply, () => duplicate),
    query: await rps(PATHS.query, signed({ busi_water_no: serial })),
    list: await rps(PATHS.list, signed({ limit: 20 })),
    events: await rps(PATHS.events, signed({ limit: 20 })),
  };
}

/** Large over empty, per load: 1 is flat. */
export function sizeRatios(empty: SizeLoads, large: SizeLoads): SizeLoads {
  const ratio = (key: keyof SizeLoads) => Math.round((large[key] / empty[key]) * 100) / 100;
  return {
    submit: ratio('submit'),
    duplicate: ratio('duplicate'),
    query: ratio('query'),
    list: ratio('list'),
    events: ratio('events'),
  };
}
