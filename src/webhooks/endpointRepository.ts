import type { Kysely } from 'kysely';
import type { Store } from '../store/store.ts';
import type {
  Database,
  WebhookEndpointsTable,
  WebhookEndpointStatus,
  WebhookSecretsTable,
} from '../store/tables.ts';

/** Queries over webhook endpoints and their signing secrets. Takes a Kysely handle or a transaction. */

export async function insertEndpoint(db: Kysely<Database>, row: WebhookEndpointsTable): Promise<void> {
  await db.insertInto('webhook_endpoints').values(row).execute();
}

export async function findEndpoint(
  db: Kysely<Database>,
  id: string,
): Promise<WebhookEndpointsTable | undefined> {
  return db.selectFrom('webhook_endpoints').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function listEndpointRows(
  db: Kysely<Database>,
  appId: string | undefined,
): Promise<WebhookEndpointsTable[]> {
  let query = db.selectFrom('webhook_endpoints').selectAll();
  if (appId !== undefined) query = query.where('app_id', '=', appId);
  return query.orderBy('created_at').orderBy('id').execute();
}

/** Active endpoints of some apps: the candidates of a fan-out. */
export async function activeEndpointsOf(db: Kysely<Database>, appIds: readonly string[]) {
  if (appIds.length === 0) return [];
  return db
    .selectFrom('webhook_endpoints')
    .select(['id', 'app_id', 'event_types', 'created_at'])
    .where('app_id', 'in', appIds)
    .where('status', '=', 'active')
    .execute();
}

export async function updateEndpointStatus(
  db: Kysely<Database>,
  id: string,
  status: WebhookEndpointStatus,
  now: number,
): Promise<boolean> {
  const result = await db
    .updateTable('webhook_endpoints')
    // Enabled again (or disabled by hand): the health record starts afresh.
    .set({ status, updated_at: now, failing_since: null, disabled_reason: null })
    .where('id', '=', id)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** An endpoint's health, its row locked until the transaction ends. */
export async function lockEndpointHealth(store: Pick<Store, 'lockRows'>, trx: Kysely<Database>, id: string) {
  const read = trx
    .selectFrom('webhook_endpoints')
    .select(['app_id', 'status', 'failing_since', 'url'])
    .where('id', '=', id);
  return store.lockRows(read).executeTakeFirst();
}

/** An attempt succeeded: the endpoint is failing no more. */
export async function clearFailing(db: Kysely<Database>, id: string): Promise<void> {
  await db
    .updateTable('webhook_endpoints')
    .set({ failing_since: null })
    .where('id', '=', id)
    .where('failing_since', 'is not', null)
    .execute();
}

/** The first failed attempt after a success. */
export async function markFailing(db: Kysely<Database>, id: string, now: number): Promise<void> {
  await db.updateTable('webhook_endpoints').set({ failing_since: now }).where('id', '=', id).execute();
}

/** Disabled by the service, because it keeps failing. */
export async function disableFailing(db: Kysely<Database>, id: string, now: number): Promise<void> {
  await db
    .updateTable('webhook_endpoints')
    .set({ status: 'disabled', disabled_reason: 'failing', updated_at: now })
    .where('id', '=', id)
    .execute();
}

/** Deletes an endpoint; its secrets, deliveries and their attempts go with it (ON DELETE CASCADE). */
export async function deleteEndpointRow(db: Kysely<Database>, id: string): Promise<boolean> {
  const result = await db.deleteFrom('webhook_endpoints').where('id', '=', id).executeTakeFirst();
  return result.numDeletedRows > 0n;
}

export async function insertSecret(db: Kysely<Database>, row: WebhookSecretsTable): Promise<void> {
  await db.insertInto('webhook_secrets').values(row).execute();
}

/** The secrets of some endpoints that still sign at `now`, newest first. */
export async function liveSecretsOf(db: Kysely<Database>, endpointIds: readonly string[], now: number) {
  if (endpointIds.length === 0) return [];
  return db
    .selectFrom('webhook_secrets')
    .select(['id', 'endpoint_id', 'secret_enc', 'created_at', 'expires_at'])
    .where('endpoint_id', 'in', endpointIds)
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .execute();
}

/** Rotation: secrets still signing after `until` stop then; secrets already expired are removed. */
export async function expireSecrets(
  db: Kysely<Database>,
  endpointId: string,
  until: number,
  now: number,
): Promise<void> {
  await db
    .updateTable('webhook_secrets')
    .set({ expires_at: until })
    .where('endpoint_id', '=', endpointId)
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', until)]))
    .execute();
  await db
    .deleteFrom('webhook_secrets')
    .where('endpoint_id', '=', endpointId)
    .where('expires_at', '<=', now)
    .execute();
}
