import { problem, type FieldProblem } from '../../errors/problems.ts';
import { ApplicationRequest } from '../../record/schema.ts';

/**
 * The fields of an application an operator may name in a request for information: those of the
 * specification's section 2.1 (everything the submit takes but the request's own `app_id` and
 * `timestamp`, and the partner's `external_id`, which is not the applicant's data).
 */
export const SUBMIT_FIELDS: readonly string[] = Object.keys(ApplicationRequest.properties).filter(
  (name) => !['app_id', 'timestamp', 'external_id'].includes(name),
);

/**
 * Fields of the submit a partner is never asked to send again: the payment password is a digest
 * no reviewer sees, so none can judge it wrong; the card number is the card's, assigned by the
 * service (or chosen at the submit), not information about the applicant.
 */
export const NOT_RESENDABLE: readonly string[] = ['pay_pwd', 'card_no'];

/** The fields an operator may ask a partner to send again (the amend then takes exactly those). */
export const AMENDABLE_FIELDS: readonly string[] = SUBMIT_FIELDS.filter(
  (name) => !NOT_RESENDABLE.includes(name),
);

const SUBMIT = new Set(SUBMIT_FIELDS);
const AMENDABLE = new Set(AMENDABLE_FIELDS);

export function isAmendable(name: string): boolean {
  return AMENDABLE.has(name);
}

/**
 * What is wrong with a list of requested field names: names outside the submit's fields, fields a
 * partner cannot send again (named), repeats.
 */
export function requestedFieldProblems(list: readonly string[]): FieldProblem[] {
  if (list.length > SUBMIT_FIELDS.length) {
    return [problem('requested_fields', 'fieldTooManyItems', { max: AMENDABLE_FIELDS.length })];
  }
  const problems: FieldProblem[] = [];
  const seen = new Set<string>();
  list.forEach((name, index) => {
    if (!SUBMIT.has(name)) {
      problems.push(
        problem(`requested_fields[${index}]`, 'fieldNotAllowed', { allowed: 'the fields of the submit' }),
      );
    } else if (!AMENDABLE.has(name)) {
      problems.push(problem(`requested_fields[${index}]`, 'fieldNotResendable', { name }));
    } else if (seen.has(name)) {
      problems.push(problem('requested_fields', 'fieldDuplicateItems'));
    }
    seen.add(name);
  });
  return problems;
}

/** The fields of a stored list (JSON array text; null: none). */
export function fieldListOf(stored: string | null | undefined): string[] {
  if (stored === null || stored === undefined) return [];
  const parsed = JSON.parse(stored) as unknown;
  return Array.isArray(parsed) ? parsed.filter((name): name is string => typeof name === 'string') : [];
}
