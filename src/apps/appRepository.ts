import type { Kysely } from 'kysely';
import type { AppsTable, Database } from '../store/tables.ts';

/** Queries over callers (apps) and their credentials. Takes a Kysely handle or a transaction. */

export async function insertApp(db: Kysely<Database>, app: AppsTable): Promise<void> {
  await db.insertInto('apps').values(app).execute();
}

export async function findApp(db: Kysely<Database>, appId: string): Promise<AppsTable | undefined> {
  return db.selectFrom('apps').selectAll().where('app_id', '=', appId).executeTakeFirst();
}

export async function listApps(db: Kysely<Database>): Promise<AppsTable[]> {
  return db.selectFrom('apps').selectAll().orderBy('created_at').orderBy('app_id').execute();
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

export async function insertToken(
  db: Kysely<Database>,
  token: { token_hash: string; app_id: string; created_at: number; expires_at: number },
): Promise<void> {
  await db
    .insertInto('access_tokens')
    .values({ ...token, revoked_at: null })
    .execute();
}

/** A token with the state of its app, in one round trip: this runs on every caller request. */
export async function findTokenWithApp(db: Kysely<Database>, tokenHash: string) {
  return db
    .selectFrom('access_tokens')
    .innerJoin('apps', 'apps.app_id', 'access_tokens.app_id')
    .select([
      'access_tokens.app_id',
      'access_tokens.expires_at',
      'access_tokens.revoked_at',
      'apps.status as app_status',
      'apps.rate_limit_per_second',
      'apps.rate_limit_burst',
    ])
    .where('access_tokens.token_hash', '=', tokenHash)
    .executeTakeFirst();
}
