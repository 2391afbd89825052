import { actorName, isOperatorNamed, type ChangedBy } from '../audit/actor.ts';
import { recordAudit } from '../audit/auditTrail.ts';
import type { ServiceContext } from '../context.ts';
import { hashPassword } from '../crypto/passwordHash.ts';
import { problem, type FieldProblem } from '../errors/problems.ts';
import { ServiceError, ValidationError } from '../errors/serviceError.ts';
import { isUniqueViolation } from '../store/errors.ts';
import {
  findOperator,
  insertOperator,
  enabledAdminExists,
  listOperators,
  revokeSessionsOf,
  updateOperator,
} from './operatorRepository.ts';
import { passwordProblems, rememberPassword, reuseProblems } from './passwordPolicy.ts';
import { hasRole, isRole, ROLES, type Role } from '../access/roles.ts';
import { secondFactorStates, type SecondFactorState } from './totp.ts';

/**
 * Operator accounts: a user name, a role and a password stored only as an argon2id hash. Every change
 * is written to the audit trail with who made it.
 */
export const USERNAME_PATTERN = '^[a-z0-9][a-z0-9._-]{1,63}$';
const USERNAME = new RegExp(USERNAME_PATTERN);
export { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from './passwordPolicy.ts';

export interface OperatorView {
  username: string;
  role: Role;
  disabled: boolean;
  /** A compliance duty: sees the applications a deletion restricted (docs/PRIVACY.md). */
  compliance: boolean;
  created_at: number;
  updated_at: number;
}

/** Who makes an account change: an operator (over the admin API) or the CLI's user (`system`). */
function viewOf(row: {
  username: string;
  role: Role;
  disabled: number;
  compliance?: number | undefined;
  created_at: number;
  updated_at: number;
}): OperatorView {
  return {
    username: row.username,
    role: row.role,
    disabled: row.disabled === 1,
    compliance: Number(row.compliance ?? 0) === 1,
    created_at: Math.floor(row.created_at / 1000),
    updated_at: Math.floor(row.updated_at / 1000),
  };
}

export async function createOperator(
  ctx: ServiceContext,
  request: { username: string; role: string; password: string },
  by: ChangedBy,
): Promise<OperatorView> {
  const problems: FieldProblem[] = [];
  if (!USERNAME.test(request.username)) {
    problems.push(
      problem('username', 'fieldFormat', {
        rule: 'must be 2 to 64 lower-case letters, digits, ".", "_" or "-", starting with a letter or digit',
        rule_zh: '必须为 2 到 64 个小写字母、数字、"."、"_" 或 "-"，并以字母或数字开头',
      }),
    );
  }
  if (!isRole(request.role)) problems.push(problem('role', 'fieldNotAllowed', { allowed: ROLES.join(', ') }));
  problems.push(...(await passwordProblems(request.password)));
  if (problems.length > 0) throw new ValidationError(problems);
  const role = request.role as Role;

  const passwordHash = await hashPassword(request.password);
  const now = ctx.now();
  const row = {
    username: request.username,
    role,
    password_hash: passwordHash,
    disabled: 0,
    created_at: now,
    updated_at: now,
  };
  try {
    await ctx.store.transaction(async (trx) => {
      if ((await findOperator(trx, request.username)) !== undefined) throw new ServiceError('operatorExists');
      await insertOperator(trx, row);
      await recordAudit(trx, {
        actor: actorName(by.actor),
        action: 'operator.create',
        targetType: 'operator',
        targetId: request.username,
        details: { role },
        source: by.source,
        at: now,
      });
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new ServiceError('operatorExists');
    throw error;
  }
  return viewOf(row);
}

/**
 * Whether an enabled admin exists. Until one does, the first admin is created from a shell without
 * naming an operator (`cardapply operators create`); after, an admin creates every other.
 */
export async function hasEnabledAdmin(ctx: ServiceContext): Promise<boolean> {
  return enabledAdminExists(ctx.store.db);
}

/** The operators, each with the state of their second factor (for the admins' list). */
export async function listOperatorViews(
  ctx: ServiceContext,
): Promise<(OperatorView & { second_factor: SecondFactorState })[]> {
  const factors = await secondFactorStates(ctx.store.db);
  return (await listOperators(ctx.store.db)).map((row) => ({
    ...viewOf(row),
    second_factor: factors.get(row.username) ?? 'none',
  }));
}

async function change(
  ctx: ServiceContext,
  username: string,
  by: ChangedBy,
  work: (current: { role: Role; disabled: number; password_hash: string; compliance?: number }) => {
    changes: {
      role?: Role;
      disabled?: number;
      compliance?: number;
      password_hash?: string;
      failed_logins?: number;
      locked_until?: null;
    };
    action:
      'operator.disable' | 'operator.enable' | 'operator.role' | 'operator.password' | 'operator.compliance';
    details?: Record<string, unknown>;
    revokeSessions: boolean;
  },
): Promise<OperatorView> {
  return ctx.store.transaction(async (trx) => {
    const current = await findOperator(trx, username);
    if (current === undefined) throw new ServiceError('operatorNotFound');
    const { changes, action, details, revokeSessions } = work(current);
    const now = ctx.now();
    if (changes.password_hash !== undefined)
      await rememberPassword(trx, username, current.password_hash, now);
    await updateOperator(trx, username, { ...changes, updated_at: now });
    if (revokeSessions) await revokeSessionsOf(trx, username, now);
    await recordAudit(trx, {
      actor: actorName(by.actor),
      action,
      targetType: 'operator',
      targetId: username,
      details: details ?? null,
      source: by.source,
      at: now,
    });
    return viewOf({ ...current, ...changes, updated_at: now });
  });
}

/**
 * Disabling also ends the operator's sessions at once. Nobody disables themselves. Enabling also
 * lifts a lock after failed sign-ins: the admin has spoken with the operator.
 */
export async function setOperatorDisabled(
  ctx: ServiceContext,
  username: string,
  disabled: boolean,
  by: ChangedBy,
): Promise<OperatorView> {
  if (disabled && isOperatorNamed(by.actor, username)) throw new ServiceError('selfChangeForbidden');
  return change(ctx, username, by, () => ({
    changes: disabled ? { disabled: 1 } : { disabled: 0, failed_logins: 0, locked_until: null },
    action: disabled ? 'operator.disable' : 'operator.enable',
    revokeSessions: disabled,
  }));
}

/** A role change takes effect on the next request (sessions read the role every time). */
export async function setOperatorRole(
  ctx: ServiceContext,
  username: string,
  role: string,
  by: ChangedBy,
): Promise<OperatorView> {
  if (!isRole(role)) {
    throw new ValidationError([problem('role', 'fieldNotAllowed', { allowed: ROLES.join(', ') })]);
  }
  return change(ctx, username, by, (current) => {
    if (isOperatorNamed(by.actor, username) && !hasRole(role, current.role))
      throw new ServiceError('selfChangeForbidden');
    return {
      changes: { role },
      action: 'operator.role',
      details: { from: current.role, to: role },
      revokeSessions: false,
    };
  });
}

/**
 * The compliance duty: an operator with it still sees the applications a deletion request restricted
 * under anti-money-laundering record keeping (docs/PRIVACY.md). Apart from the role, which stays
 * linear; takes effect on the next request.
 */
export async function setOperatorCompliance(
  ctx: ServiceContext,
  username: string,
  compliance: boolean,
  by: ChangedBy,
): Promise<OperatorView> {
  return change(ctx, username, by, (current) => ({
    changes: { compliance: compliance ? 1 : 0 },
    action: 'operator.compliance',
    details: { from: Number(current.compliance ?? 0) === 1, to: compliance },
    revokeSessions: false,
  }));
}

/** A new password (not one of the last four) ends every session of the operator. */
export async function setOperatorPassword(
  ctx: ServiceContext,
  username: string,
  password: string,
  by: ChangedBy,
): Promise<OperatorView> {
  const problems = await passwordProblems(password);
  if (problems.length > 0) throw new ValidationError(problems);
  const current = await findOperator(ctx.store.db, username);
  if (current === undefined) throw new ServiceError('operatorNotFound');
  const reused = await reuseProblems(ctx.store.db, username, current.password_hash, password);
  if (reused.length > 0) throw new ValidationError(reused);
  const passwordHash = await hashPassword(password);
  return change(ctx, username, by, () => ({
    changes: { password_hash: passwordHash },
    action: 'operator.password',
    revokeSessions: true,
  }));
}

/**
 * The operator a CLI command acts as: it must exist, be enabled and have the role the command
 * needs. The CLI runs with direct access to the store, so it trusts the name it is given; what it
 * does is recorded under that name.
 */
/**
 * Whether an operator holds the compliance duty (sees the applications a deletion restricted,
 * docs/PRIVACY.md), for a command line that acts as them: the console's session carries it.
 */
export async function hasComplianceDuty(ctx: ServiceContext, username: string): Promise<boolean> {
  const row = await findOperator(ctx.store.db, username);
  return row !== undefined && Number(row.compliance) === 1;
}

export async function actingOperator(
  ctx: ServiceContext,
  username: string,
  required: Role,
): Promise<{ kind: 'operator'; id: string; role: Role }> {
  const row = await findOperator(ctx.store.db, username);
  if (row === undefined) throw new ServiceError('operatorNotFound');
  if (row.disabled === 1) {
    throw new ServiceError('forbidden', {
      params: { reason: 'the operator is disabled', reason_zh: '该操作员已停用' },
    });
  }
  if (!hasRole(row.role, required)) {
    throw new ServiceError('forbidden', {
      params: {
        reason: `a ${row.role} cannot do this; ${required} or higher is required`,
        reason_zh: `${row.role} 无权执行此操作，需要 ${required} 或更高角色`,
      },
    });
  }
  return { kind: 'operator', id: row.username, role: row.role };
}
