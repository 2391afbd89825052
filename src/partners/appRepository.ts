import type { Kysely } from 'kysely';
import type { Store } from '../store/connect.ts';
import { statement } from '../store/statements.ts';
import type { AppsTable, Database } from '../store/tables.ts';

/** Queries over partners' apps and their credentials. Takes a Kysely handle or a transaction. */

export async function insertApp(db: Kysely<Database>, app: AppsTable): Promise<void> {
  await db.insertInto('apps').values(app).execute();
}

export async function findApp(db: Kysely<Database>, appId: string): Promise<AppsTable | undefined> {
  return db.selectFrom('apps').selectAll().where('app_id', '=', appId).executeTakeFirst();
}

/** The names of these apps (those that exist). */
export async function appNames(db: Kysely<Database>, appIds: readonly string[]) {
  if (appIds.length === 0) return [];
  return db.selectFrom('apps').select(['app_id', 'name']).where('app_id', 'in', appIds).execute();
}

export async function listApps(db: Kysely<Database>): Promise<AppsTable[]> {
  return db.selectFrom('apps').selectAll().orderBy('created_at').orderBy('app_id').execute();
}

/** Changes an app's status, its own rate limit, its own concurrency limit or its risk level. */
export async function updateApp(
  db: Kysely<Database>,
  appId: string,
  changes: Partial<
    Pick<
      AppsTable,
      'status' | 'rate_limit_per_second' | 'rate_limit_burst' | 'concurrency_limit' | 'risk_level'
    >
  > & {
    updated_at: number;
  },
): Promise<void> {
  await db.updateTable('apps').set(changes).where('app_id', '=', appId).execute();
}

export async function insertSecret(
  db: Kysely<Database>,
  secret: { secret_hash: string; app_id: string; created_at: number; expires_at: number | null },
): Promise<void> {
  await db.insertInto('app_secrets').values(secret).execute();
}

/** The secrets of an app that still work at `now`. */
export async function liveSecretHashes(db: Kysely<Database>, appId: string, now: number): Promise<string[]> {
  const rows = await db
    .selectFrom('app_secrets')
    .select('secret_hash')
    .where('app_id', '=', appId)
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
    .execute();
  return rows.map((row) => row.secret_hash);
}

/** Makes every secret of an app that would work after `retireAt` stop then; returns how many. */
export async function retireSecrets(db: Kysely<Database>, appId: string, retireAt: number): Promise<number> {
  const result = await db
    .updateTable('app_secrets')
    .set({ expires_at: retireAt })
    .where('app_id', '=', appId)
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', retireAt)]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

export async function insertToken(
  db: Kysely<Database>,
  token: { token_hash: string; app_id: string; created_at: number; expires_at: number },
): Promise<void> {
  await db
    .insertInto('access_tokens')
    .values({ ...token, revoked_at: null })
    .execute();
}

/** The app an access token was issued to, revoked or not. */
export async function findTokenAppId(db: Kysely<Database>, tokenHash: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('access_tokens')
    .select('app_id')
    .where('token_hash', '=', tokenHash)
    .executeTakeFirst();
  return row?.app_id;
}

/** Revokes the live access tokens of an app, or the one of that hash; returns how many. */
export async function revokeLiveTokens(
  db: Kysely<Database>,
  which: { appId: string } | { tokenHash: string },
  now: number,
): Promise<number> {
  const live = db.updateTable('access_tokens').set({ revoked_at: now }).where('revoked_at', 'is', null);
  const query =
    'appId' in which
      ? live.where('app_id', '=', which.appId)
      : live.where('token_hash', '=', which.tokenHash);
  return Number((await query.executeTakeFirst()).numUpdatedRows);
}

const FIND_TOKEN_WITH_APP = statement(
  'find_token_with_app',
  `SELECT t.app_id, t.expires_at, t.revoked_at, a.status AS app_status,
          a.rate_limit_per_second, a.rate_limit_burst, a.concurrency_limit
     FROM {access_tokens} t JOIN {apps} a ON a.app_id = t.app_id
    WHERE t.token_hash = ?`,
);

export interface TokenWithApp {
  app_id: string;
  expires_at: number;
  revoked_at: number | null;
  app_status: string;
  rate_limit_per_second: number | null;
  rate_limit_burst: number | null;
  concurrency_limit: number | null;
}

/** A token with the state of its app, in one round trip: this runs on every partner request. */
export async function findTokenWithApp(store: Store, tokenHash: string): Promise<TokenWithApp | undefined> {
  const rows = await store.run<TokenWithApp>(FIND_TOKEN_WITH_APP, [tokenHash]);
  return rows[0];
}
