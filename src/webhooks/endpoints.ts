import { randomBytes } from 'node:crypto';
import { Type, type Static, type TSchema } from 'typebox';
import { findApp } from '../partners/appRepository.ts';
import type { ServiceContext } from '../context.ts';
import { problem, type FieldProblem } from '../errors/problems.ts';
import { ServiceError, ValidationError } from '../errors/serviceError.ts';
import { EVENT_TYPES } from '../record/lifecycle.ts';
import type { WebhookEndpointsTable, WebhookEndpointStatus } from '../store/tables.ts';
import {
  deleteEndpointRow,
  expireSecrets,
  findEndpoint,
  insertEndpoint,
  insertSecret,
  listEndpointRows,
  liveSecretsOf,
  updateEndpointStatus,
} from './endpointRepository.ts';
import { checkEndpointUrl } from '../network/endpointUrl.ts';
import { newWebhookSecret } from '../crypto/webhookSignature.ts';

/**
 * Webhook endpoints, registered by operators per app: add (the signing secret is shown this once),
 * list, rotate the secret with an overlap in which both sign, disable, enable and delete. The CLI
 * and the admin routes are thin layers over these functions.
 */

const nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/**
 * The endpoint's id under the name every webhook call gives it: the requests ask `endpoint_id`, so
 * the answers carry it too. `id` is the same value under its first name, kept for integrations
 * written against it.
 */
export const EndpointIdFields = {
  endpoint_id: Type.String({ description: 'The endpoint id (`we_...`), as every webhook request names it.' }),
  id: Type.String({ deprecated: true, description: 'Deprecated: the same value as `endpoint_id`.' }),
};

/** An endpoint as operators and its app see it: never a secret itself, only the ids in force. */
export const EndpointView = Type.Object({
  ...EndpointIdFields,
  app_id: Type.String(),
  url: Type.String(),
  // null means every event type.
  events: nullable(Type.Array(Type.String())),
  status: Type.String({ description: '`active` or `disabled`.' }),
  failing_since: nullable(
    Type.Integer({ description: 'Unix seconds since its attempts fail with no success in between.' }),
  ),
  disabled_reason: nullable(
    Type.String({ description: '`failing` when the service disabled it after five days of failures.' }),
  ),
  created_at: Type.Integer(),
  updated_at: Type.Integer(),
  secrets: Type.Array(
    Type.Object({
      id: Type.String(),
      created_at: Type.Integer(),
      expires_at: nullable(Type.Integer({ description: 'Set while a rotated-out secret still signs.' })),
    }),
  ),
});
export type EndpointView = Static<typeof EndpointView>;

export const CreatedEndpoint = Type.Object({
  ...EndpointView.properties,
  secret: Type.String({ description: 'The signing secret, `whsec_...`: shown this once.' }),
});
export type CreatedEndpoint = Static<typeof CreatedEndpoint>;

export const DeletedEndpoint = Type.Object({ ...EndpointIdFields, deleted: Type.Literal(true) });
export type DeletedEndpoint = Static<typeof DeletedEndpoint>;

/** Rotation overlap when none is given: receivers have a day to deploy the new secret. */
export const DEFAULT_OVERLAP_SECONDS = 86_400;

const seconds = (ms: number) => Math.floor(ms / 1000);

function newEndpointId(): string {
  return `we_${randomBytes(10).toString('hex')}`;
}

function newSecretId(): string {
  return `ws_${randomBytes(10).toString('hex')}`;
}

/** The aad that binds an encrypted secret to its row: it cannot be moved to another endpoint. */
export function secretAad(endpointId: string, secretId: string): string {
  return `webhook_secret:${endpointId}:${secretId}`;
}

function checkEventTypes(types: readonly string[] | undefined): FieldProblem[] {
  if (types === undefined) return [];
  if (types.length === 0) return [problem('events', 'fieldEmpty')];
  const unknown = types.find((t) => !EVENT_TYPES.includes(t));
  if (unknown !== undefined)
    return [problem('events', 'fieldNotAllowed', { allowed: EVENT_TYPES.join(', ') })];
  return [];
}

export async function addEndpoint(
  ctx: ServiceContext,
  request: { appId: string; url: string; events?: readonly string[] },
): Promise<CreatedEndpoint> {
  const problems = [
    ...(await checkEndpointUrl('url', request.url, ctx.config.webhooks.allowPrivate)),
    ...checkEventTypes(request.events),
  ];
  if (problems.length > 0) throw new ValidationError(problems);
  const app = await findApp(ctx.store.db, request.appId);
  if (app === undefined) throw new ServiceError('appNotFound');

  const now = ctx.now();
  const id = newEndpointId();
  const { secret, row: secretRow } = newSecretRow(ctx, id, now);
  const events = request.events === undefined ? null : [...new Set(request.events)];
  await ctx.store.transaction(async (trx) => {
    await insertEndpoint(trx, {
      id,
      app_id: app.app_id,
      url: request.url,
      event_types: events === null ? null : JSON.stringify(events),
      status: 'active',
      created_at: now,
      updated_at: now,
    });
    await insertSecret(trx, secretRow);
  });
  return { ...(await getEndpoint(ctx, id)), secret };
}

/** A fresh signing secret for an endpoint, and its row: encrypted, bound to the endpoint and its id. */
function newSecretRow(ctx: ServiceContext, endpointId: string, now: number) {
  const secretId = newSecretId();
  const secret = newWebhookSecret();
  const encrypted = ctx.keyRing.encrypt(secret, secretAad(endpointId, secretId));
  const row = {
    id: secretId,
    endpoint_id: endpointId,
    secret_enc: encrypted,
    key_id: ctx.keyRing.keyIdOf(encrypted),
    created_at: now,
    expires_at: null,
  };
  return { secret, row };
}

export async function getEndpoint(ctx: ServiceContext, id: string): Promise<EndpointView> {
  const row = await findEndpoint(ctx.store.db, id);
  if (row === undefined) throw new ServiceError('webhookEndpointNotFound');
  const [view] = await views(ctx, [row]);
  return view!;
}

export async function listEndpoints(
  ctx: ServiceContext,
  filter: { appId?: string } = {},
): Promise<EndpointView[]> {
  return views(ctx, await listEndpointRows(ctx.store.db, filter.appId));
}

async function views(ctx: ServiceContext, rows: WebhookEndpointsTable[]): Promise<EndpointView[]> {
  const secrets = await liveSecretsOf(
    ctx.store.db,
    rows.map((r) => r.id),
    ctx.now(),
  );
  return rows.map((row) => ({
    endpoint_id: row.id,
    id: row.id,
    app_id: row.app_id,
    url: row.url,
    events: row.event_types === null ? null : (JSON.parse(row.event_types) as string[]),
    status: row.status,
    failing_since:
      row.failing_since === null || row.failing_since === undefined ? null : seconds(row.failing_since),
    disabled_reason: row.disabled_reason ?? null,
    created_at: seconds(row.created_at),
    updated_at: seconds(row.updated_at),
    secrets: secrets
      .filter((s) => s.endpoint_id === row.id)
      .map((s) => ({
        id: s.id,
        created_at: seconds(s.created_at),
        expires_at: s.expires_at === null ? null : seconds(s.expires_at),
      })),
  }));
}

/**
 * A new secret, shown this once. The secrets in force keep signing for `overlapSeconds` more
 * (both signatures go out meanwhile), then stop; 0 retires them at once.
 */
export async function rotateSecret(
  ctx: ServiceContext,
  id: string,
  overlapSeconds: number = DEFAULT_OVERLAP_SECONDS,
): Promise<CreatedEndpoint> {
  if (!Number.isInteger(overlapSeconds) || overlapSeconds < 0 || overlapSeconds > 30 * 86_400) {
    throw new ValidationError([
      problem('overlap_seconds', 'fieldFormat', {
        rule: 'must be a whole number of seconds from 0 to 2592000',
        rule_zh: '必须是 0 到 2592000 之间的整数秒',
      }),
    ]);
  }
  const now = ctx.now();
  const { secret, row: secretRow } = newSecretRow(ctx, id, now);
  await ctx.store.transaction(async (trx) => {
    if ((await findEndpoint(trx, id)) === undefined) throw new ServiceError('webhookEndpointNotFound');
    await expireSecrets(trx, id, now + overlapSeconds * 1000, now);
    await insertSecret(trx, secretRow);
  });
  return { ...(await getEndpoint(ctx, id)), secret };
}

/**
 * Disabled endpoints receive nothing: events that occur meanwhile are not queued for them, and
 * deliveries already queued wait until the endpoint is enabled again.
 */
export async function setEndpointStatus(
  ctx: ServiceContext,
  id: string,
  status: WebhookEndpointStatus,
): Promise<EndpointView> {
  if (!(await updateEndpointStatus(ctx.store.db, id, status, ctx.now())))
    throw new ServiceError('webhookEndpointNotFound');
  return getEndpoint(ctx, id);
}

/** Deletes the endpoint with its secrets, deliveries and attempt log. */
export async function deleteEndpoint(ctx: ServiceContext, id: string): Promise<DeletedEndpoint> {
  if (!(await deleteEndpointRow(ctx.store.db, id))) throw new ServiceError('webhookEndpointNotFound');
  return { endpoint_id: id, id, deleted: true };
}
