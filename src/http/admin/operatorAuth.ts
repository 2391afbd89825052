import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Actor, ChangedBy } from '../../audit/actor.ts';
import type { ServiceContext } from '../../context.ts';
import type { ErrorName } from '../../errors/catalogue.ts';
import { ServiceError } from '../../errors/serviceError.ts';
import { hasRole, type Role } from '../../access/roles.ts';
import { authenticateOperator, csrfTokenMatches, type OperatorIdentity } from '../../operators/sessions.ts';
import { raises } from '../routeErrors.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The authenticated operator, set by `requireOperator`. */
    operator: (OperatorIdentity & { via: 'bearer' | 'cookie' }) | null;
  }
}

/**
 * Operator authentication for the admin API (and anything else for operators: the webhook admin
 * routes, the console's API calls). One hook, `requireOperator(ctx, minRole)`:
 *
 * - the session token comes from `Authorization: Bearer <token>`, or else from the session cookie;
 * - unknown, expired, idle too long, revoked or disabled: 401; a role below `minRole`: 403 `forbidden`;
 * - a session of an operator who still has to enrol a second factor: 403 `mfa_enrolment_required`,
 *   except on the routes marked `duringEnrolment` (enrolment itself, who am I, sign-out);
 * - a cookie-authenticated request that is not GET/HEAD/OPTIONS must carry the session's CSRF
 *   token (returned by the login) in `x-csrf-token`, else 403. A Bearer token needs none: a browser
 *   never adds that header by itself.
 *
 * Use it as the route's `onRequest` hook, so that who may call is settled before the body is read
 * or validated (an outsider learns nothing from validation errors); it works as a `preHandler` too.
 */
export const SESSION_COOKIE = 'cardapply_session';

/** What `requireOperator` answers when it refuses a request, in the order the documents list them. */
const OPERATOR_AUTH_ERRORS: ErrorName[] = [
  'operatorAuthRequired',
  'operatorSessionInvalid',
  'csrfTokenInvalid',
  'forbidden',
  'mfaEnrolmentRequired',
];
export const CSRF_HEADER = 'x-csrf-token';
/** Sent by the console's own refreshes: they do not count as use of the session (idle end). */
export const BACKGROUND_HEADER = 'x-cardapply-background';

export function isBackground(request: FastifyRequest): boolean {
  return request.headers[BACKGROUND_HEADER] === '1';
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export function requireOperator(
  ctx: ServiceContext,
  minRole: Role,
  options: { duringEnrolment?: boolean } = {},
) {
  // Every route it guards documents these (http/routeErrors.ts).
  return raises(
    OPERATOR_AUTH_ERRORS,
    async (request: FastifyRequest, _reply?: FastifyReply): Promise<void> => {
      const credential = credentialOf(request);
      if (credential === undefined) throw new ServiceError('operatorAuthRequired');
      const identity = await authenticateOperator(ctx, credential.token, {
        background: isBackground(request),
      });
      // Signed in with a password alone where a second factor is required: only enrolment (and
      // signing out) until it is done.
      if (identity.scope === 'enrol' && options.duringEnrolment !== true) {
        throw new ServiceError('mfaEnrolmentRequired');
      }
      if (credential.via === 'cookie' && !SAFE_METHODS.has(request.method)) {
        const sent = request.headers[CSRF_HEADER];
        if (typeof sent !== 'string' || !csrfTokenMatches(credential.token, sent)) {
          throw new ServiceError('csrfTokenInvalid');
        }
      }
      request.operator = { ...identity, via: credential.via };
      if (!hasRole(identity.role, minRole)) {
        throw new ServiceError('forbidden', {
          params: {
            reason: `a ${identity.role} cannot do this; ${minRole} or higher is required`,
            reason_zh: `${identity.role} 无权执行此操作，需要 ${minRole} 或更高角色`,
          },
        });
      }
    },
  );
}

export function credentialOf(
  request: FastifyRequest,
): { token: string; via: 'bearer' | 'cookie' } | undefined {
  const header = request.headers.authorization;
  if (typeof header === 'string') {
    const match = /^\s*bearer\s+(\S+)\s*$/i.exec(header);
    return match?.[1] === undefined ? undefined : { token: match[1], via: 'bearer' };
  }
  const cookie = readCookie(request.headers.cookie, SESSION_COOKIE);
  return cookie === undefined ? undefined : { token: cookie, via: 'cookie' };
}

/** One cookie's value from a `Cookie` header; no dependency needed for a single name. */
export function readCookie(header: string | undefined, name: string): string | undefined {
  if (header === undefined) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() === name) {
      const value = part.slice(eq + 1).trim();
      return value === '' ? undefined : value;
    }
  }
  return undefined;
}

/**
 * The session cookie: HttpOnly (scripts cannot read it), SameSite=Strict (never sent by another
 * site's request), Path=/, and Secure unless the console is reached over plain HTTP on the loopback
 * interface, as in development (browsers would otherwise refuse it there).
 */
export function sessionCookie(request: FastifyRequest, token: string, maxAgeSeconds: number): string {
  const parts = [
    `${SESSION_COOKIE}=${token}`,
    'Path=/',
    `Max-Age=${maxAgeSeconds}`,
    'HttpOnly',
    'SameSite=Strict',
  ];
  if (!isPlainLoopback(request)) parts.push('Secure');
  return parts.join('; ');
}

export function clearedSessionCookie(request: FastifyRequest): string {
  return sessionCookie(request, '', 0);
}

function isPlainLoopback(request: FastifyRequest): boolean {
  if (request.protocol === 'https') return false;
  return /^(localhost|127\.0\.0\.1|\[::1\])(:[0-9]+)?$/i.test(request.host);
}

/** The authenticated operator of a route behind `requireOperator`. */
export function operatorOf(request: FastifyRequest): NonNullable<FastifyRequest['operator']> {
  if (request.operator === null) throw new Error('operator route without requireOperator');
  return request.operator;
}

/** The operator as the actor of a domain operation. */
export function operatorActor(request: FastifyRequest): Extract<Actor, { kind: 'operator' }> {
  const operator = operatorOf(request);
  return { kind: 'operator', id: operator.username, role: operator.role };
}

/** The operator of an admin request, and where it came from: who made an audited change. */
export function changedBy(request: FastifyRequest): ChangedBy {
  return { actor: operatorActor(request), source: adminSource(request) };
}

/** Where an admin request came from, for the audit trail. */
export function adminSource(request: FastifyRequest): string {
  return `admin-api ${request.ip}`;
}
