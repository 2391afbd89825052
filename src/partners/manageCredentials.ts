import { Type, type Static } from 'typebox';
import { actorName, type ChangedBy } from '../audit/actor.ts';
import type { Kysely } from 'kysely';
import { recordAudit } from '../audit/auditTrail.ts';
import type { ServiceContext } from '../context.ts';
import { hashSecret, newSecret } from '../crypto/secrets.ts';
import { ServiceError } from '../errors/serviceError.ts';
import type { Database } from '../store/tables.ts';
import {
  findApp,
  findTokenAppId,
  insertSecret,
  retireSecrets,
  revokeLiveTokens,
  updateApp,
} from './appRepository.ts';

/**
 * What an operator does to a partner's credentials, each change audited in its own transaction:
 * rotate the secret with an overlap, revoke access tokens one by one or all of an app, and set the
 * app's own rate limit. Disabling and enabling an app is `setAppStatus` (appAdministration.ts).
 */

async function appOrThrow(db: Kysely<Database>, appId: string) {
  const app = await findApp(db, appId);
  if (app === undefined) throw new ServiceError('appNotFound');
  return app;
}

/** A rotated app secret: the new one, shown this once, and when the previous ones stop working. */
export const RotatedSecret = Type.Object({
  app_id: Type.String(),
  app_secret: Type.String({ description: 'Shown this once; only its hash is stored.' }),
  previous_secrets_expire_at: Type.Integer({ description: 'Unix seconds.' }),
});
export type RotatedSecret = Static<typeof RotatedSecret>;

/**
 * A new secret, working at once; the app's previous secrets keep working for `overlapSeconds` (so
 * the partner can deploy the new one), then only the new one does. Tokens already issued are not
 * touched: revoke them too when the old secret leaked.
 */
export async function rotateSecret(
  ctx: ServiceContext,
  appId: string,
  overlapSeconds: number,
  by: ChangedBy,
): Promise<RotatedSecret> {
  if (!Number.isInteger(overlapSeconds) || overlapSeconds < 0) {
    throw new Error('rotateSecret: overlapSeconds must be a whole number of seconds, 0 or more');
  }
  const secret = newSecret('sk');
  return ctx.store.transaction(async (trx) => {
    await appOrThrow(trx, appId);
    const now = ctx.now();
    const retireAt = now + overlapSeconds * 1000;
    const retired = await retireSecrets(trx, appId, retireAt);
    await insertSecret(trx, {
      secret_hash: hashSecret(secret),
      app_id: appId,
      created_at: now,
      expires_at: null,
    });
    await recordAudit(trx, {
      actor: actorName(by.actor),
      action: 'app.secret_rotate',
      targetType: 'app',
      targetId: appId,
      details: { overlap_seconds: overlapSeconds, previous_secrets: retired },
      source: by.source,
      at: now,
    });
    return { app_id: appId, app_secret: secret, previous_secrets_expire_at: Math.floor(retireAt / 1000) };
  });
}

export type TokenSelector = { token: string } | { tokenHash: string } | { appId: string };

/**
 * Revokes live access tokens: one (by the token or its hash) or every token of an app. A revoked
 * token is refused on its next request, on every instance. Returns how many were revoked.
 */
export async function revokeTokens(
  ctx: ServiceContext,
  selector: TokenSelector,
  by: ChangedBy,
): Promise<{ revoked: number }> {
  return ctx.store.transaction(async (trx) => {
    const now = ctx.now();
    let appId: string;
    let tokenHash: string | undefined;
    if ('appId' in selector) {
      await appOrThrow(trx, selector.appId);
      appId = selector.appId;
    } else {
      tokenHash = 'token' in selector ? hashSecret(selector.token) : selector.tokenHash.toLowerCase();
      const owner = await findTokenAppId(trx, tokenHash);
      if (owner === undefined) return { revoked: 0 };
      appId = owner;
    }
    const revoked = await revokeLiveTokens(trx, tokenHash === undefined ? { appId } : { tokenHash }, now);
    if (revoked > 0) {
      await recordAudit(trx, {
        actor: actorName(by.actor),
        action: 'app.token_revoke',
        targetType: 'app',
        targetId: appId,
        details:
          tokenHash === undefined
            ? { scope: 'all', tokens: revoked }
            : { scope: 'one', token_hash: tokenHash },
        source: by.source,
        at: now,
      });
    }
    return { revoked };
  });
}

export interface RateLimitView {
  app_id: string;
  /** null: the configured default applies. */
  rate_limit_per_second: number | null;
  rate_limit_burst: number | null;
}

/** The app's own rate limit (a token bucket), or null to use the configured default. */
export async function setRateLimit(
  ctx: ServiceContext,
  appId: string,
  limit: { perSecond: number; burst: number } | null,
  by: ChangedBy,
): Promise<RateLimitView> {
  if (limit !== null) {
    for (const [name, value] of [
      ['per second', limit.perSecond],
      ['burst', limit.burst],
    ] as const) {
      if (!Number.isInteger(value) || value < 1 || value > 1_000_000) {
        throw new Error(`setRateLimit: ${name} must be a whole number from 1 to 1000000`);
      }
    }
  }
  return ctx.store.transaction(async (trx) => {
    const app = await appOrThrow(trx, appId);
    const now = ctx.now();
    const view = {
      app_id: appId,
      rate_limit_per_second: limit?.perSecond ?? null,
      rate_limit_burst: limit?.burst ?? null,
    };
    await updateApp(trx, appId, {
      rate_limit_per_second: view.rate_limit_per_second,
      rate_limit_burst: view.rate_limit_burst,
      updated_at: now,
    });
    await recordAudit(trx, {
      actor: actorName(by.actor),
      action: 'app.update',
      targetType: 'app',
      targetId: appId,
      details: {
        from: { rate_limit_per_second: app.rate_limit_per_second, rate_limit_burst: app.rate_limit_burst },
        to: { rate_limit_per_second: view.rate_limit_per_second, rate_limit_burst: view.rate_limit_burst },
      },
      source: by.source,
      at: now,
    });
    return view;
  });
}

export interface ConcurrencyLimitView {
  app_id: string;
  /** null: APP_CONCURRENCY_LIMIT applies. */
  concurrency_limit: number | null;
}

/**
 * The app's own cap on its requests in progress at once in each service process, or null to use
 * APP_CONCURRENCY_LIMIT: more room for a partner that sends in parallel, less for a noisy one.
 */
export async function setConcurrencyLimit(
  ctx: ServiceContext,
  appId: string,
  limit: number | null,
  by: ChangedBy,
): Promise<ConcurrencyLimitView> {
  if (limit !== null && (!Number.isInteger(limit) || limit < 1 || limit > 1_000_000)) {
    throw new Error('setConcurrencyLimit: the limit must be a whole number from 1 to 1000000');
  }
  return ctx.store.transaction(async (trx) => {
    const app = await appOrThrow(trx, appId);
    const now = ctx.now();
    await updateApp(trx, appId, { concurrency_limit: limit, updated_at: now });
    await recordAudit(trx, {
      actor: actorName(by.actor),
      action: 'app.update',
      targetType: 'app',
      targetId: appId,
      details: { from: { concurrency_limit: app.concurrency_limit }, to: { concurrency_limit: limit } },
      source: by.source,
      at: now,
    });
    return { app_id: appId, concurrency_limit: limit };
  });
}
