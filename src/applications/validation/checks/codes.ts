import type { CodeTable } from '../../../codes/tables.ts';
import { problem, type FieldProblem } from '../../../errors/problems.ts';

/**
 * Codes against the tables in force: `country`, `position`, `profession` (one code each); `purpose`
 * and `wealth_source` (lists: every item known, none twice); the free text that the profession's
 * "other" code requires (`profession_other`). `purpose_other` and `wealth_source_other` are
 * optional, as the spec says: an "other" code without them is a risk flag, not an error.
 *
 * A code is echoed in the message: it is a short code, not personal data.
 */

export function checkCode(field: string, value: string, table: CodeTable): FieldProblem[] {
  return table.byCode.has(value) ? [] : [problem(field, 'codeUnknown', { value, table: table.name })];
}

export function checkCodeList(field: string, values: readonly string[], table: CodeTable): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const seen = new Set<string>();
  let duplicate = false;
  for (const value of values) {
    if (seen.has(value)) {
      duplicate = true;
      continue;
    }
    seen.add(value);
    if (!table.byCode.has(value)) problems.push(problem(field, 'codeUnknown', { value, table: table.name }));
  }
  if (duplicate) problems.push(problem(field, 'fieldDuplicateItems'));
  return problems;
}

/** The `*_other` text is required when the chosen code(s) include the table's "other" code (used for the profession). */
export function checkOtherText(
  field: string,
  text: string | undefined,
  chosen: string | readonly string[],
  sourceField: string,
  table: CodeTable,
): FieldProblem[] {
  const other = table.otherCode;
  if (other === undefined || text !== undefined) return [];
  const includesOther = typeof chosen === 'string' ? chosen === other : chosen.includes(other);
  return includesOther ? [problem(field, 'otherTextRequired', { source: sourceField })] : [];
}
