import { boolean, ConfigError, integer, optional, raw, text, type Env } from './variables.ts';

/** PCI DSS v4 8.2.8: an idle session ends after at most 15 minutes. */
export const PCI_IDLE_SECONDS = 900;

export interface OperatorConfig {
  /** A session unused for this long ends (PCI DSS 8.2.8); longer than 15 minutes only with a reason. */
  sessionIdleSeconds: number;
  /** Why the idle time-out is longer than PCI's 15 minutes (required then; logged at start). */
  sessionIdleReason: string | undefined;
  /** A session ends this long after sign-in however busy it is: a stolen token does not live forever. */
  sessionMaxSeconds: number;
  /** Every operator needs a second factor (TOTP) to sign in (PCI DSS 8.4.2); off by default only in SANDBOX. */
  mfaRequired: boolean;
  /** Failed sign-ins in a row that lock the account (PCI DSS 8.3.4: at most 10). */
  lockoutThreshold: number;
  /** How long a locked account stays locked (PCI DSS 8.3.4: at least 30 minutes). */
  lockoutSeconds: number;
  /** Masked values one operator may reveal per hour: a stolen session cannot empty the store. */
  revealsPerHour: number;
  /** How long a reviewer's claim on an application lasts without being renewed. */
  claimSeconds: number;
  /** Waiting time per status past which the queue highlights an application (status -> seconds). */
  slaSeconds: Readonly<Record<string, number>>;
}

export function operatorConfig(env: Env, sandbox: boolean): OperatorConfig {
  const sessionIdleSeconds = integer(env, 'OPERATOR_SESSION_IDLE_SECONDS');
  const sessionIdleReason = optional(env, 'OPERATOR_SESSION_IDLE_REASON');
  if (
    sessionIdleSeconds > PCI_IDLE_SECONDS &&
    (sessionIdleReason === undefined || sessionIdleReason.trim().length < 10)
  )
    throw new ConfigError(
      `OPERATOR_SESSION_IDLE_SECONDS: more than ${PCI_IDLE_SECONDS} (PCI DSS 8.2.8) needs OPERATOR_SESSION_IDLE_REASON saying why`,
    );
  const sessionMaxSeconds = integer(env, 'OPERATOR_SESSION_MAX_SECONDS');
  if (sessionMaxSeconds < sessionIdleSeconds)
    throw new ConfigError(
      'OPERATOR_SESSION_MAX_SECONDS: must not be less than OPERATOR_SESSION_IDLE_SECONDS',
    );
  const slaSeconds: Record<string, number> = {};
  for (const part of text(env, 'REVIEW_SLA_SECONDS').split(',')) {
    const [status, seconds] = part.trim().split(':');
    slaSeconds[status!] = Number(seconds);
  }
  return {
    sessionIdleSeconds,
    sessionIdleReason,
    sessionMaxSeconds,
    // Default: required, except in SANDBOX (integration testing against fake data).
    mfaRequired:
      raw(env, 'OPERATOR_MFA_REQUIRED') === undefined ? !sandbox : boolean(env, 'OPERATOR_MFA_REQUIRED'),
    lockoutThreshold: integer(env, 'OPERATOR_LOCKOUT_THRESHOLD'),
    lockoutSeconds: integer(env, 'OPERATOR_LOCKOUT_SECONDS'),
    revealsPerHour: integer(env, 'OPERATOR_REVEALS_PER_HOUR'),
    claimSeconds: integer(env, 'REVIEW_CLAIM_SECONDS'),
    slaSeconds,
  };
}
