import { problem, type FieldProblem } from '../../errors/problems.ts';
import { ApplicationRequest } from '../../record/schema.ts';

/**
 * The fields an operator may ask a partner to send again: those of the specification's section 2.1
 * (everything the submit takes but the request's own `app_id` and `timestamp`, and the partner's
 * `external_id`, which is not the applicant's data).
 */
export const AMENDABLE_FIELDS: readonly string[] = Object.keys(ApplicationRequest.properties).filter(
  (name) => !['app_id', 'timestamp', 'external_id'].includes(name),
);

const AMENDABLE = new Set(AMENDABLE_FIELDS);

export function isAmendable(name: string): boolean {
  return AMENDABLE.has(name);
}

/** What is wrong with a list of requested field names: names outside the submit's fields, repeats. */
export function requestedFieldProblems(list: readonly string[]): FieldProblem[] {
  if (list.length > AMENDABLE_FIELDS.length) {
    return [problem('requested_fields', 'fieldTooManyItems', { max: AMENDABLE_FIELDS.length })];
  }
  const problems: FieldProblem[] = [];
  const seen = new Set<string>();
  list.forEach((name, index) => {
    if (!AMENDABLE.has(name)) {
      problems.push(
        problem(`requested_fields[${index}]`, 'fieldNotAllowed', { allowed: 'the fields of the submit' }),
      );
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
