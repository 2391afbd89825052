import { Type, type Static } from 'typebox';
import type { Kysely } from 'kysely';
import { ServiceError } from '../errors/serviceError.ts';
import { hashSecret, newAppId, newSecret, secretMatches } from '../crypto/secrets.ts';
import type { ServiceContext } from '../context.ts';
import type { Database } from '../store/tables.ts';
import {
  findApp,
  findTokenWithApp,
  insertApp,
  insertSecret,
  insertToken,
  liveSecretHashes,
  type TokenWithApp,
} from './appRepository.ts';
import { tokenCacheOf } from './tokenCache.ts';

/**
 * Partners and their credentials: apps with a secret, exchanged for short-lived opaque access
 * tokens. Secrets and tokens are stored only as SHA-256 hashes and shown once.
 */

/** A new app: its id and its first secret, shown this once. */
export const CreatedApp = Type.Object({
  app_id: Type.String(),
  app_secret: Type.String({ description: 'Shown this once; only its hash is stored.' }),
});
export type CreatedApp = Static<typeof CreatedApp>;

export async function createApp(db: Kysely<Database>, name: string, now: number): Promise<CreatedApp> {
  const appId = newAppId();
  const secret = newSecret('sk');
  await db.transaction().execute(async (trx) => {
    await insertApp(trx, {
      app_id: appId,
      name,
      status: 'active',
      rate_limit_per_second: null,
      rate_limit_burst: null,
      concurrency_limit: null,
      created_at: now,
      updated_at: now,
    });
    await insertSecret(trx, {
      secret_hash: hashSecret(secret),
      app_id: appId,
      created_at: now,
      expires_at: null,
    });
  });
  return { app_id: appId, app_secret: secret };
}

/** What the token exchange answers. */
export const IssuedToken = Type.Object({
  access_token: Type.String({ description: 'Opaque token for the Authorization header.' }),
  token_type: Type.Literal('Bearer'),
  expires_in: Type.Integer({ description: 'Lifetime in seconds.' }),
});
export type IssuedToken = Static<typeof IssuedToken>;

export async function issueToken(
  ctx: Pick<ServiceContext, 'store'>,
  request: { appId: string; appSecret: string; ttlSeconds: number; now: number },
): Promise<IssuedToken> {
  const db = ctx.store.db;
  const app = await findApp(db, request.appId);
  const hashes = app === undefined ? [] : await liveSecretHashes(db, request.appId, request.now);
  // Compare against every live secret (rotation keeps two) without stopping early.
  let matched = false;
  for (const hash of hashes) matched = secretMatches(request.appSecret, hash) || matched;
  if (app === undefined || !matched) throw new ServiceError('credentialsInvalid');
  if (app.status !== 'active') throw new ServiceError('appDisabled');

  const token = newSecret('at');
  await insertToken(db, {
    token_hash: hashSecret(token),
    app_id: app.app_id,
    created_at: request.now,
    expires_at: request.now + request.ttlSeconds * 1000,
  });
  return { access_token: token, token_type: 'Bearer', expires_in: request.ttlSeconds };
}

export interface Partner {
  appId: string;
  rateLimitPerSecond: number | null;
  rateLimitBurst: number | null;
  /** The app's own cap on requests in progress at once, or null for APP_CONCURRENCY_LIMIT. */
  concurrencyLimit: number | null;
}

/** The `Authorization` header holds the bare token or `Bearer <token>`. */
export function tokenFromHeader(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  const match = /^\s*(?:bearer\s+)?(\S+)\s*$/i.exec(header);
  return match?.[1];
}

/**
 * The partner holding a token its process checked lately (TOKEN_CACHE_MS), answered without a store
 * round trip; otherwise the token's hash, to look up with `lookupPartner`. Throws when there is no
 * token or the remembered one has expired since.
 */
export function cachedPartner(
  ctx: Pick<ServiceContext, 'store' | 'config'>,
  header: string | undefined,
  now: number,
): Partner | { tokenHash: string } {
  const token = tokenFromHeader(header);
  if (token === undefined) throw new ServiceError('tokenMissing');
  // Looked up by its hash: the lookup itself reveals nothing about stored tokens.
  const tokenHash = hashSecret(token);
  const ttlMs = ctx.config.tokenCacheMs;
  const row = ttlMs > 0 ? tokenCacheOf(ctx.store, ttlMs).get(tokenHash) : undefined;
  return row === undefined ? { tokenHash } : partnerOfRow(row, now);
}

/** The partner holding a token the cache does not hold, from the store (remembered when it works). */
export async function lookupPartner(
  ctx: Pick<ServiceContext, 'store' | 'config'>,
  tokenHash: string,
  now: number,
): Promise<Partner> {
  const ttlMs = ctx.config.tokenCacheMs;
  if (ttlMs <= 0) return partnerOfRow(await findTokenWithApp(ctx.store, tokenHash), now);
  const cache = tokenCacheOf(ctx.store, ttlMs);
  const row = await cache.lookup(tokenHash, async (generation) => {
    const found = await findTokenWithApp(ctx.store, tokenHash);
    // Only a token that authenticates is remembered: a refusal is read again each time.
    if (found !== undefined && refusalOf(found, now) === undefined) cache.set(tokenHash, found, generation);
    return found;
  });
  return partnerOfRow(row, now);
}

export async function authenticate(
  ctx: Pick<ServiceContext, 'store' | 'config'>,
  header: string | undefined,
  now: number,
): Promise<Partner> {
  const cached = cachedPartner(ctx, header, now);
  return 'tokenHash' in cached ? lookupPartner(ctx, cached.tokenHash, now) : cached;
}

/** Why a stored token does not authenticate at `now`, or undefined when it does: the one rule. */
function refusalOf(
  row: TokenWithApp,
  now: number,
): 'tokenInvalid' | 'tokenExpired' | 'appDisabled' | undefined {
  if (row.revoked_at !== null) return 'tokenInvalid';
  if (row.expires_at <= now) return 'tokenExpired';
  if (row.app_status !== 'active') return 'appDisabled';
  return undefined;
}

function partnerOfRow(row: TokenWithApp | undefined, now: number): Partner {
  if (row === undefined) throw new ServiceError('tokenInvalid');
  const refusal = refusalOf(row, now);
  if (refusal !== undefined) throw new ServiceError(refusal);
  return {
    appId: row.app_id,
    rateLimitPerSecond: row.rate_limit_per_second,
    rateLimitBurst: row.rate_limit_burst,
    concurrencyLimit: row.concurrency_limit,
  };
}
