import type { Kysely } from 'kysely';
import { actionTimes } from '../../audit/auditRepository.ts';
import type { ServiceContext } from '../../context.ts';
import { problem, type FieldProblem } from '../../errors/problems.ts';
import { ServiceError, ValidationError } from '../../errors/serviceError.ts';
import type { Database } from '../../store/tables.ts';

/**
 * Why an operator sees identity data in the clear (PCI DSS v4 3.3, 3.4.1: shown only to those with
 * a need, and that need recorded): every reveal states a purpose from a short list, with a text
 * (required for `other`), and both go into its audit row. An operator may reveal at most
 * `OPERATOR_REVEALS_PER_HOUR` times an hour, counted from the audit trail itself (so every
 * instance sees the same count); refusals and reveals are counted in a metric.
 */
export const REVEAL_PURPOSES = [
  'identity_check',
  'document_comparison',
  'customer_request',
  'fraud_investigation',
  'card_issuance',
  'other',
] as const;
export type RevealPurposeCode = (typeof REVEAL_PURPOSES)[number];

export interface RevealPurpose {
  code: RevealPurposeCode;
  text: string | null;
}

export const PURPOSE_TEXT_MAX = 200;

/** The actions that show identity data in the clear, and so count towards the limit. */
export const REVEAL_ACTIONS = ['application.reveal', 'application.review_open'] as const;

export function checkPurpose(code: unknown, text: unknown): RevealPurpose {
  const problems: FieldProblem[] = [];
  if (typeof code !== 'string' || !(REVEAL_PURPOSES as readonly string[]).includes(code)) {
    problems.push(problem('purpose', 'fieldNotAllowed', { allowed: REVEAL_PURPOSES.join(', ') }));
  }
  const trimmed = typeof text === 'string' ? text.trim() : '';
  if (code === 'other' && trimmed === '') problems.push(problem('purpose_text', 'fieldRequired'));
  if (trimmed.length > PURPOSE_TEXT_MAX)
    problems.push(problem('purpose_text', 'fieldTooLong', { max: PURPOSE_TEXT_MAX }));
  if (problems.length > 0) throw new ValidationError(problems);
  return { code: code as RevealPurposeCode, text: trimmed === '' ? null : trimmed };
}

/** Refuses (429) when the operator has used up this hour's reveals; call inside the reveal's transaction. */
export async function takeReveal(
  ctx: ServiceContext,
  db: Kysely<Database>,
  username: string,
  purpose: RevealPurpose,
) {
  const limit = ctx.config.operators.revealsPerHour;
  const since = ctx.now() - 3_600_000;
  const recent = await actionTimes(db, {
    actor: `operator:${username}`,
    actions: REVEAL_ACTIONS,
    since,
    limit,
  });
  if (recent.length >= limit) {
    ctx.metrics.reveals.inc({ purpose: purpose.code, outcome: 'limited' });
    const retryAfter = Math.max(1, Math.ceil((recent[0]! - since) / 1000));
    throw new ServiceError('revealsLimited', {
      params: { limit, retry_after: retryAfter },
      data: { retry_after: retryAfter },
      headers: { 'retry-after': String(retryAfter) },
    });
  }
  ctx.metrics.reveals.inc({ purpose: purpose.code, outcome: 'revealed' });
}
