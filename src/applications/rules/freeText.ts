import { problem, type FieldProblem } from '../../errors/problems.ts';
import { LIMITS } from '../../record/schema.ts';

/**
 * Free text that people type into the record (a reason, a carrier) is shown to partners, written
 * to the audit trail and sent in events, so it must not become a place where an identity or card
 * number ends up in the clear: 15 or more digits in a row (identity numbers, card numbers) are
 * refused. Shorter numbers (a tracking number, a date) pass.
 */
const LONG_NUMBER = /[0-9]{15,}|[0-9]{17}[Xx]/;

export function freeTextProblems(
  field: string,
  value: string | null | undefined,
  max: number = LIMITS.freeText,
): FieldProblem[] {
  if (value === null || value === undefined) return [];
  if (value.length === 0) return [problem(field, 'fieldEmpty')];
  if (value.length > max) return [problem(field, 'fieldTooLong', { max })];
  if (LONG_NUMBER.test(value.replace(/[\s-]/g, ''))) return [problem(field, 'textCarriesNumber')];
  return [];
}
