import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  onSendHookHandler,
  preHandlerHookHandler,
  RouteOptions,
} from 'fastify';
import { Type, type TSchema } from 'typebox';
import type { ServiceContext } from '../context.ts';
import { ServiceError } from '../errors/serviceError.ts';
import { requestHash } from '../idempotency/canonicalJson.ts';
import {
  beginIdempotentRequest,
  completeClaim,
  purgeExpiredKeys,
  releaseClaim,
  type IdempotencyClaim,
  type IdempotencySettings,
} from '../idempotency/idempotencyKeys.ts';
import { bodyOf, partnerOf } from './partnerAuth.ts';
import { success } from './envelope.ts';
import { describe } from '../errors/describe.ts';
import { raises } from './routeErrors.ts';

/**
 * `Idempotency-Key` for mutating partner routes. A route opts in with `config: { idempotent: true }`;
 * the hooks here then claim the key before its handler runs (or replay what is stored, marked
 * `Idempotent-Replayed: true`), and record the response it sends (or release the key on a 5xx).
 *
 * A handler whose operation has a transaction passes `idempotencyOf(request)` down: the operation
 * then records its domain result under the key in its own commit, and this layer builds the
 * response from that result, now and when it replays it. Otherwise the response is recorded as it
 * is sent, which is still one run per key but not crash-atomic with the operation.
 */
declare module 'fastify' {
  interface FastifyContextConfig {
    /** Honour `Idempotency-Key` on this route (partner routes after authentication only). */
    idempotent?: boolean;
  }
  interface FastifyRequest {
    /** The claimed idempotency key of this request, if it sent one on an idempotent route. */
    idempotency: RequestIdempotency | null;
  }
}

export const IDEMPOTENCY_HEADER = 'idempotency-key';
export const REPLAYED_HEADER = 'idempotent-replayed';
const KEY = /^[\x20-\x7e]{1,255}$/;
const PURGE_INTERVAL_MS = 15 * 60_000;

/** The claim of one request, and whether its operation records its own result. */
interface RequestIdempotency {
  readonly claim: IdempotencyClaim;
  handedToOperation: boolean;
}

/**
 * The request's claim, for an operation that records its own success in its transaction; its 2xx
 * response is then not recorded again here.
 */
export function idempotencyOf(request: FastifyRequest): IdempotencyClaim | undefined {
  const handle = request.idempotency;
  if (handle === null) return undefined;
  handle.handedToOperation = true;
  return handle.claim;
}

function parseKey(value: string | string[] | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'string' && KEY.test(value)) return value;
  throw new ServiceError('headerInvalid', {
    params: {
      field: 'Idempotency-Key',
      reason: 'must be 1 to 255 printable ASCII characters',
      reason_zh: '必须为 1 到 255 个可打印 ASCII 字符',
    },
  });
}

function settingsOf(ctx: ServiceContext): IdempotencySettings {
  const { protection } = ctx.config;
  return {
    ttlMs: protection.idempotencyTtlSeconds * 1000,
    waitMs: protection.idempotencyWaitMs,
    leaseMs: protection.idempotencyLeaseMs,
  };
}

/**
 * The hooks are plain functions that call `done`, so that a request without a key passes them
 * without a promise (Fastify runs an async hook through one).
 */
function claimHook(ctx: ServiceContext): preHandlerHookHandler {
  const claim = claimKey(ctx);
  return function claimIdempotencyKey(request, reply, done) {
    const key = parseKey(request.headers[IDEMPOTENCY_HEADER]);
    if (key === undefined) done();
    else claim(request, reply, key).then(() => done(), done);
  };
}

function claimKey(ctx: ServiceContext) {
  const settings = settingsOf(ctx);
  return async (request: FastifyRequest, reply: FastifyReply, key: string): Promise<unknown> => {
    const operation = request.routeOptions.config.operation ?? request.routeOptions.url ?? '';
    const outcome = await beginIdempotentRequest(
      ctx,
      { appId: partnerOf(request).appId, key, requestHash: requestHash(operation, bodyOf(request)) },
      settings,
      ctx.now,
    );
    if (outcome.kind === 'result') {
      // Serialised as the route's own 200 is: the same bytes as the first response.
      return reply.code(200).header(REPLAYED_HEADER, 'true').send(success(request, outcome.result));
    }
    if (outcome.kind === 'response') {
      return reply
        .code(outcome.response.status)
        .header(REPLAYED_HEADER, 'true')
        .type('application/json; charset=utf-8')
        .send(outcome.response.body);
    }
    request.idempotency = { claim: outcome.claim, handedToOperation: false };
    return undefined;
  };
}

function finishHook(ctx: ServiceContext): onSendHookHandler {
  const record = recordResponse(ctx);
  return function storeIdempotentResponse(request, reply, payload, done) {
    const handle = request.idempotency;
    if (handle === null) return done(null, payload);
    request.idempotency = null;
    record(request, reply, handle, payload).then(() => done(null, payload), done);
  };
}

function recordResponse(ctx: ServiceContext) {
  return async (
    request: FastifyRequest,
    reply: FastifyReply,
    handle: RequestIdempotency,
    payload: unknown,
  ) => {
    // The operation recorded its result in its own commit.
    if (handle.handedToOperation && reply.statusCode === 200) return payload;
    try {
      if (reply.statusCode >= 500 || typeof payload !== 'string') {
        await releaseClaim(ctx, handle.claim);
      } else if (!(await completeClaim(ctx, handle.claim, { status: reply.statusCode, body: payload }))) {
        request.log.warn({ operation: request.routeOptions.config.operation }, 'idempotency claim lost');
      }
    } catch (error) {
      // The response still goes out; the claim ends with its lease.
      request.log.warn({ err: describe(error) }, 'idempotency key not recorded');
    }
    return payload;
  };
}

function asArray<T>(value: T | T[] | undefined): T[] {
  return value === undefined ? [] : Array.isArray(value) ? value : [value];
}

/** Documents the header on an idempotent route (its errors come with the claim hook); the hooks validate it. */
function document(route: RouteOptions): void {
  const schema = route.schema;
  if (schema === undefined) return;
  const headers = (schema.headers ?? Type.Object({})) as TSchema & { properties?: Record<string, unknown> };
  schema.headers = {
    ...headers,
    properties: {
      ...headers.properties,
      [IDEMPOTENCY_HEADER]: Type.Optional(
        Type.String({
          description:
            '1 to 255 printable ASCII characters, unique per request of this app, kept 24 hours: the same key with the same body (compared without `timestamp`) returns the first response again, with `Idempotent-Replayed: true`; with another body it is a 409.',
        }),
      ),
    },
  };
}

/**
 * Installs the idempotency hooks on every route declared with `config: { idempotent: true }` after
 * this call, and the periodic removal of expired keys. Call before registering routes.
 */
export function installIdempotency(app: FastifyInstance, ctx: ServiceContext): void {
  app.decorateRequest('idempotency', null);
  const claim = raises(['headerInvalid', 'idempotencyKeyReused', 'idempotencyInProgress'], claimHook(ctx));
  const finish = finishHook(ctx);
  app.addHook('onRoute', (route) => {
    if (route.config?.idempotent !== true) return;
    route.preHandler = [...asArray(route.preHandler), claim];
    route.onSend = [...asArray(route.onSend), finish];
    document(route);
  });

  const purge = () => {
    purgeExpiredKeys(ctx, ctx.now()).then(
      (removed) => {
        if (removed > 0) app.log.info({ removed }, 'expired idempotency keys removed');
      },
      (error: unknown) => app.log.warn({ err: describe(error) }, 'idempotency key purge failed'),
    );
  };
  const timer = setInterval(purge, PURGE_INTERVAL_MS);
  timer.unref();
  app.addHook('onClose', async () => clearInterval(timer));
}
