import { createHash, timingSafeEqual } from 'node:crypto';
import { recordAudit } from '../audit/auditTrail.ts';
import type { ServiceContext } from '../context.ts';
import { hashPassword, hashSecret, newSecret, verifyPassword } from '../crypto/secrets.ts';
import { ServiceError } from '../errors/serviceError.ts';
import { findOperator, findSessionWithOperator, insertSession, revokeSession } from './operatorRepository.ts';
import type { Role } from './roles.ts';

/**
 * Operator sessions: a login exchanges user name and password for an opaque token (`os_...`, 256
 * random bits) that expires; only its SHA-256 is stored. The same token serves as a Bearer token
 * and as the console's session cookie. Each session has a CSRF token derived from it, which a
 * cookie-authenticated request that changes something must send back in a header.
 */
export const SESSION_TTL_SECONDS = 8 * 3600;

export interface OperatorIdentity {
  username: string;
  role: Role;
  /** Hash of the session token: identifies the session for logout. */
  sessionHash: string;
}

export interface LoginResult {
  token: string;
  token_type: 'Bearer';
  expires_in: number;
  csrf_token: string;
  operator: { username: string; role: Role };
}

/**
 * The CSRF token of a session: a one-way function of its token, so it reveals nothing about the
 * token, and needs no storage. Only someone who holds the token (as the console does at login)
 * knows it; a cross-site form riding on the cookie does not.
 */
export function csrfTokenFor(token: string): string {
  return createHash('sha256').update(`cardapply csrf\u0000${token}`, 'utf8').digest('base64url');
}

export function csrfTokenMatches(token: string, sent: string): boolean {
  const expected = Buffer.from(csrfTokenFor(token), 'utf8');
  const actual = Buffer.from(sent, 'utf8');
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}

// Unknown user names are checked against this hash, so that a login takes as long either way and
// its timing does not tell which names exist.
let decoyHash: Promise<string> | undefined;

export async function login(
  ctx: ServiceContext,
  request: { username: string; password: string; source: string },
): Promise<LoginResult> {
  const operator = await findOperator(ctx.store.db, request.username);
  decoyHash ??= hashPassword('decoy password for unknown operators');
  const matches = await verifyPassword(request.password, operator?.password_hash ?? (await decoyHash));
  const now = ctx.now();
  if (operator === undefined || !matches || operator.disabled === 1) {
    // The attempted name is recorded only when it is an operator's: a mistyped password pasted
    // into the name field must not end up in the trail.
    await recordAudit(ctx.store.db, {
      actor: operator === undefined ? 'anonymous' : `operator:${operator.username}`,
      action: 'operator.login_failed',
      targetType: operator === undefined ? null : 'operator',
      targetId: operator === undefined ? null : operator.username,
      details: {
        reason: operator === undefined ? 'unknown_user' : !matches ? 'wrong_password' : 'disabled',
      },
      source: request.source,
      at: now,
    });
    throw new ServiceError('loginFailed');
  }
  const token = newSecret('os');
  await ctx.store.transaction(async (trx) => {
    await insertSession(trx, {
      token_hash: hashSecret(token),
      username: operator.username,
      created_at: now,
      expires_at: now + SESSION_TTL_SECONDS * 1000,
    });
    await recordAudit(trx, {
      actor: `operator:${operator.username}`,
      action: 'operator.login',
      targetType: 'operator',
      targetId: operator.username,
      source: request.source,
      at: now,
    });
  });
  return {
    token,
    token_type: 'Bearer',
    expires_in: SESSION_TTL_SECONDS,
    csrf_token: csrfTokenFor(token),
    operator: { username: operator.username, role: operator.role },
  };
}

/** The operator behind a session token; refused when unknown, expired, revoked or disabled. */
export async function authenticateOperator(ctx: ServiceContext, token: string): Promise<OperatorIdentity> {
  const sessionHash = hashSecret(token);
  const row = await findSessionWithOperator(ctx.store.db, sessionHash);
  if (row === undefined || row.revoked_at !== null || row.expires_at <= ctx.now() || row.disabled === 1) {
    throw new ServiceError('operatorSessionInvalid');
  }
  return { username: row.username, role: row.role, sessionHash };
}

export async function logout(ctx: ServiceContext, operator: OperatorIdentity, source: string): Promise<void> {
  const now = ctx.now();
  await ctx.store.transaction(async (trx) => {
    await revokeSession(trx, operator.sessionHash, now);
    await recordAudit(trx, {
      actor: `operator:${operator.username}`,
      action: 'operator.logout',
      targetType: 'operator',
      targetId: operator.username,
      source,
      at: now,
    });
  });
}
