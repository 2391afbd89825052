import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  onRequestHookHandler,
  preValidationHookHandler,
} from 'fastify';
import { cachedPartner, lookupPartner, type Partner } from '../partners/credentials.ts';
import type { ServiceContext } from '../context.ts';
import { ServiceError } from '../errors/serviceError.ts';
// `request.server.limits`, installed by build().
import type {} from './rateLimit.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The authenticated app, set by the partner authentication hook. */
    partner: Partner | null;
  }
}

/**
 * `timestamp` bounds the replay window: a request too far from server time is refused, with the
 * server's time in `data` so that a partner can see its clock is off. A value that is not an
 * integer is left to field validation.
 */
export function checkTimestamp(value: unknown, nowMs: number, allowedSeconds: number): void {
  if (typeof value !== 'number' || !Number.isInteger(value)) return;
  const serverTime = Math.floor(nowMs / 1000);
  const skew = Math.abs(value - serverTime);
  if (skew <= allowedSeconds) return;
  const milliseconds = Math.abs(value / 1000 - serverTime) <= allowedSeconds;
  throw new ServiceError('timestampSkew', {
    params: {
      skew,
      allowed: allowedSeconds,
      hint: milliseconds ? '; it looks like milliseconds: send seconds' : '',
      hint_zh: milliseconds ? '；该值似乎是毫秒，请使用秒' : '',
    },
    data: { server_time: serverTime },
  });
}

/** The body as an object with possibly anything in it; the parser guarantees an object. */
export function bodyOf(request: FastifyRequest): Record<string, unknown> {
  const body = request.body;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new ServiceError('bodyEmpty');
  return body as Record<string, unknown>;
}

/**
 * Guards a group of partner routes: admission on the headers when it can be decided at once
 * (`partnerAdmission`), the rest after the body (`partnerAuthentication`). The two go together:
 * the second completes what the first began.
 */
export function guardPartnerRoutes(app: Pick<FastifyInstance, 'addHook'>, ctx: ServiceContext): void {
  app.addHook('onRequest', partnerAdmission(ctx));
  app.addHook('preValidation', partnerAuthentication(ctx));
}

/**
 * Admission before the body is read, when it can be decided at once: the token is in this
 * process's cache (TOKEN_CACHE_MS) and the rate limit is in memory. The app takes a slot
 * (APP_CONCURRENCY_LIMIT) and a token of its rate limit, or the request is refused (429) without
 * its body being read or parsed: the cheapest refusal, for an app flooding the service. Anything
 * else (no token, one to look up, a limit in Redis, a bad token) waits for `partnerAuthentication`
 * after the body, as before, so that those errors keep their order.
 */
function partnerAdmission(ctx: ServiceContext): onRequestHookHandler {
  return function admitPartnerEarly(request, reply, done) {
    if (request.server.limits.limiter.shared) return done();
    let cached: Partner | { tokenHash: string };
    try {
      cached = cachedPartner(ctx, request.headers.authorization, ctx.now());
    } catch {
      return done();
    }
    if ('tokenHash' in cached) return done();
    let pending: Promise<void> | undefined;
    try {
      pending = takeSlot(request, reply, cached);
    } catch (error) {
      return done(error as Error);
    }
    settle(pending, done);
  };
}

/**
 * Who is calling: the token names the app, the app has a slot (APP_CONCURRENCY_LIMIT) and room in
 * its rate limit (unless `partnerAdmission` gave them before the body), the body's `app_id` must be
 * that app, and the `timestamp` must be fresh. Runs after the body is parsed and before it is
 * validated. A revoked token or a disabled app stops working at once on the instance that made the
 * change, and within TOKEN_CACHE_MS (at most a second) on every other one (apps/tokenCache.ts).
 *
 * Not an async function: with the token in the process's cache and the rate limit in memory it runs
 * through without a promise, which Fastify runs cheaper; it awaits only a store lookup or Redis.
 */
export function partnerAuthentication(ctx: ServiceContext): preValidationHookHandler {
  return function authenticatePartner(request, reply, done) {
    let pending: Promise<void> | undefined;
    try {
      pending = admit(ctx, request, reply);
    } catch (error) {
      done(error as Error);
      return;
    }
    settle(pending, done);
  };
}

/** Calls `done` at once, or when `pending` settles: a hook that needs no promise runs without one. */
function settle(pending: Promise<void> | undefined, done: (error?: Error) => void): void {
  if (pending === undefined) done();
  else pending.then(() => done(), done);
}

function admit(ctx: ServiceContext, request: FastifyRequest, reply: FastifyReply): Promise<void> | undefined {
  const now = ctx.now();
  if (request.partner !== null) return checkBody(ctx, request, request.partner, now);
  const cached = cachedPartner(ctx, request.headers.authorization, now);
  if (!('tokenHash' in cached)) return admitPartner(ctx, request, reply, cached, now);
  return lookupPartner(ctx, cached.tokenHash, now).then((partner) =>
    admitPartner(ctx, request, reply, partner, now),
  );
}

function admitPartner(
  ctx: ServiceContext,
  request: FastifyRequest,
  reply: FastifyReply,
  partner: Partner,
  now: number,
): Promise<void> | undefined {
  const limited = takeSlot(request, reply, partner);
  if (limited === undefined) return checkBody(ctx, request, partner, now);
  return limited.then(() => checkBody(ctx, request, partner, now));
}

/**
 * The app's slot (APP_CONCURRENCY_LIMIT) and a token of its rate limit, or the 429: a promise only
 * when the limit is in Redis.
 */
function takeSlot(request: FastifyRequest, reply: FastifyReply, partner: Partner): Promise<void> | undefined {
  request.partner = partner;
  const limits = request.server.limits;
  limits.concurrency.admit(partner.appId, reply, partner.concurrencyLimit);
  return limits.limitPartner(reply, partner);
}

function checkBody(ctx: ServiceContext, request: FastifyRequest, partner: Partner, now: number): undefined {
  const body = bodyOf(request);
  if (typeof body['app_id'] === 'string' && body['app_id'] !== partner.appId)
    throw new ServiceError('appMismatch');
  checkTimestamp(body['timestamp'], now, ctx.config.timestampSkewSeconds);
  return undefined;
}

export function partnerOf(request: FastifyRequest): Partner {
  if (request.partner === null) throw new Error('partner route without partner authentication');
  return request.partner;
}
