import { createHash, timingSafeEqual } from 'node:crypto';
import { recordAudit } from '../audit/auditTrail.ts';
import type { ServiceContext } from '../context.ts';
import { hashPassword, needsRehash, verifyPassword } from '../crypto/passwordHash.ts';
import { hashSecret, newSecret } from '../crypto/secrets.ts';
import { ServiceError } from '../errors/serviceError.ts';
import {
  failedLoginsOf,
  findOperator,
  findSessionWithOperator,
  insertSession,
  recordFailedLogins,
  recordSignIn,
  revokeSession,
  touchSession,
} from './operatorRepository.ts';
import type { Role } from '../access/roles.ts';
import { checkSecondFactor } from './totp.ts';

/**
 * Operator sessions: a sign-in exchanges user name, password and (once enrolled, or always where
 * `OPERATOR_MFA_REQUIRED`) a TOTP or recovery code for an opaque token (`os_...`, 256 random bits);
 * only its SHA-256 is stored. The same token serves as a Bearer token and as the console's session
 * cookie. A session ends when idle for `OPERATOR_SESSION_IDLE_SECONDS` (PCI DSS 8.2.8: 15 minutes)
 * and `OPERATOR_SESSION_MAX_SECONDS` after sign-in. Failed sign-ins in a row lock the account
 * (PCI DSS 8.3.4), on top of the per-name rate limit of the HTTP layer. Each session has a CSRF token
 * derived from it, which a cookie-authenticated request that changes something must send back.
 */

/** Writes of `last_seen_at` are skipped within this much of the last one: idle time is exact to it. */
const TOUCH_SLACK_MS = 5_000;

export interface OperatorIdentity {
  username: string;
  role: Role;
  /** Hash of the session token: identifies the session for logout. */
  sessionHash: string;
  /** `enrol`: signed in with a password alone where a second factor is required; may only enrol. */
  scope: 'full' | 'enrol';
  /** A compliance duty: sees the applications a deletion restricted (docs/PRIVACY.md). */
  compliance: boolean;
}

export interface LoginResult {
  token: string;
  token_type: 'Bearer';
  expires_in: number;
  idle_timeout: number;
  csrf_token: string;
  mfa_enrolment_required: boolean;
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

export interface LoginRequest {
  username: string;
  password: string;
  otp?: string | undefined;
  recovery_code?: string | undefined;
  source: string;
}

type FailureReason = 'unknown_user' | 'wrong_password' | 'disabled' | 'wrong_code' | 'locked';

export async function login(ctx: ServiceContext, request: LoginRequest): Promise<LoginResult> {
  const settings = ctx.config.operators;
  const operator = await findOperator(ctx.store.db, request.username);
  const now = ctx.now();
  if (operator !== undefined && operator.locked_until !== null && operator.locked_until > now) {
    await recordFailure(ctx, request, operator.username, 'locked', now);
    const retryAfter = Math.ceil((operator.locked_until - now) / 1000);
    throw new ServiceError('operatorLocked', {
      params: { retry_after: retryAfter },
      data: { retry_after: retryAfter },
      headers: { 'retry-after': String(retryAfter) },
    });
  }
  decoyHash ??= hashPassword('decoy password for unknown operators');
  const matches = await verifyPassword(request.password, operator?.password_hash ?? (await decoyHash));
  if (operator === undefined || !matches || operator.disabled === 1) {
    const reason = operator === undefined ? 'unknown_user' : !matches ? 'wrong_password' : 'disabled';
    await recordFailure(ctx, request, operator?.username, reason, now);
    throw new ServiceError('loginFailed');
  }

  const token = newSecret('os');
  const factor = await ctx.store.transaction(async (trx) => {
    const checked = await checkSecondFactor(ctx, trx, operator.username, request, now);
    if (checked === 'missing' || checked === 'invalid') return checked;
    const scope = checked === 'none' && settings.mfaRequired ? 'enrol' : 'full';
    const rehash = needsRehash(operator.password_hash);
    // The password is at hand only now: an earlier scheme's hash is replaced by argon2id.
    await recordSignIn(trx, operator.username, rehash ? await hashPassword(request.password) : undefined);
    await insertSession(trx, {
      token_hash: hashSecret(token),
      username: operator.username,
      created_at: now,
      expires_at: now + settings.sessionMaxSeconds * 1000,
      scope,
    });
    await recordAudit(trx, {
      actor: `operator:${operator.username}`,
      action: 'operator.login',
      targetType: 'operator',
      targetId: operator.username,
      details: { factor: checked, scope, ...(rehash ? { password_rehashed: 'argon2id' } : {}) },
      source: request.source,
      at: now,
    });
    return scope;
  });
  if (factor === 'missing') throw new ServiceError('mfaCodeRequired');
  if (factor === 'invalid') {
    await recordFailure(ctx, request, operator.username, 'wrong_code', now);
    throw new ServiceError('mfaCodeInvalid');
  }
  return {
    token,
    token_type: 'Bearer',
    expires_in: settings.sessionMaxSeconds,
    idle_timeout: settings.sessionIdleSeconds,
    csrf_token: csrfTokenFor(token),
    mfa_enrolment_required: factor === 'enrol',
    operator: { username: operator.username, role: operator.role },
  };
}

/**
 * One audit row per failed sign-in. A failure of a known operator counts towards the lock; the
 * one that reaches the threshold locks the account and is recorded as `operator.lockout`. The
 * attempted name is recorded only when it is an operator's: a mistyped password pasted into the
 * name field must not end up in the trail.
 */
async function recordFailure(
  ctx: ServiceContext,
  request: LoginRequest,
  username: string | undefined,
  reason: FailureReason,
  now: number,
): Promise<void> {
  const settings = ctx.config.operators;
  await ctx.store.transaction(async (trx) => {
    let failures: number | undefined;
    let lockedUntil: number | null = null;
    if (username !== undefined && reason !== 'locked' && reason !== 'disabled') {
      failures = (await failedLoginsOf(trx, username)) + 1;
      lockedUntil = failures >= settings.lockoutThreshold ? now + settings.lockoutSeconds * 1000 : null;
      await recordFailedLogins(trx, username, lockedUntil === null ? failures : 0, lockedUntil);
    }
    await recordAudit(trx, {
      actor: username === undefined ? 'anonymous' : `operator:${username}`,
      action: lockedUntil === null ? 'operator.login_failed' : 'operator.lockout',
      targetType: username === undefined ? null : 'operator',
      targetId: username ?? null,
      details: {
        reason,
        ...(failures === undefined ? {} : { failures }),
        ...(lockedUntil === null ? {} : { locked_until: Math.floor(lockedUntil / 1000) }),
      },
      source: request.source,
      at: now,
    });
  });
}

/**
 * The operator behind a session token; refused when unknown, revoked, past its lifetime, idle too
 * long or disabled. A valid use marks the session used, which keeps it from going idle, unless it
 * is a `background` request (a page refreshing itself): an open page must still go idle.
 */
export async function authenticateOperator(
  ctx: ServiceContext,
  token: string,
  options: { background?: boolean } = {},
): Promise<OperatorIdentity> {
  const sessionHash = hashSecret(token);
  const row = await findSessionWithOperator(ctx.store.db, sessionHash);
  const now = ctx.now();
  if (
    row === undefined ||
    row.revoked_at !== null ||
    row.expires_at <= now ||
    now - row.last_seen_at > ctx.config.operators.sessionIdleSeconds * 1000 ||
    row.disabled === 1
  ) {
    throw new ServiceError('operatorSessionInvalid');
  }
  if (options.background !== true && now - row.last_seen_at > TOUCH_SLACK_MS)
    await touchSession(ctx.store.db, sessionHash, now, TOUCH_SLACK_MS);
  return {
    username: row.username,
    role: row.role,
    sessionHash,
    scope: row.scope,
    compliance: Number(row.compliance) === 1,
  };
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
