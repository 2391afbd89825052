import type { LoadedCodeTables } from '../../codes/tables.ts';
import { problem, type FieldProblem } from '../../errors/problems.ts';

/**
 * Reason codes: codes of the `reason` table that an operator gives with a rejection, a request for
 * more information or a returned shipment, so that a partner maps every outcome to its own screens.
 * Stored as a JSON array (text) on the application and on each transition.
 */

/** At most this many codes on one move. */
export const MAX_REASON_CODES = 10;

/** What is wrong with a list of reason codes: unknown codes, repeats, too many. */
export function reasonCodeProblems(codes: LoadedCodeTables, list: readonly string[]): FieldProblem[] {
  if (list.length > MAX_REASON_CODES) {
    return [problem('reason_codes', 'fieldTooManyItems', { max: MAX_REASON_CODES })];
  }
  const problems: FieldProblem[] = [];
  const seen = new Set<string>();
  list.forEach((code, index) => {
    const field = `reason_codes[${index}]`;
    if (!codes.reason.byCode.has(code)) {
      problems.push(problem(field, 'codeUnknown', { value: code.slice(0, 32), table: 'reason' }));
    } else if (seen.has(code)) {
      problems.push(problem('reason_codes', 'fieldDuplicateItems'));
    }
    seen.add(code);
  });
  return problems;
}

/** The stored form: a JSON array, or null for none. */
export function storedReasonCodes(list: readonly string[]): string | null {
  return list.length === 0 ? null : JSON.stringify(list);
}

/** The codes of a stored value (null or missing: none). */
export function reasonCodesOf(stored: string | null | undefined): string[] {
  if (stored === null || stored === undefined) return [];
  const parsed = JSON.parse(stored) as unknown;
  return Array.isArray(parsed) ? parsed.filter((code): code is string => typeof code === 'string') : [];
}

/** Codes a partner never sees as they are (no tipping off): a sanctions hit reads as the risk policy. */
const PARTNER_READING: Readonly<Record<string, string>> = { sanctions_hit: 'risk_policy' };

/** The codes as a partner sees them (status view, events, webhooks), repeats removed. */
export function partnerReasonCodes(codes: readonly string[]): string[] {
  return [...new Set(codes.map((code) => PARTNER_READING[code] ?? code))];
}
