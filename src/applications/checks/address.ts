import { problem, type FieldProblem } from '../../errors/problems.ts';
import { checkMainlandDivisions, startsWithMainlandProvince } from './divisions.ts';

/**
 * Mainland addresses: `province-city-district-detail`, joined by `-`, with real divisions (see
 * `divisions.ts` for what each part may be).
 *
 * Which addresses are mainland addresses:
 * - `address`: when `country` is `CN`, or when it begins with the full name of a mainland province
 *   (an applicant of another country living on the mainland);
 * - `consignee_address`: when it begins with the full name of a mainland province. The consignee's
 *   phone area code does not decide it: a mainland phone number is often used for a delivery to Hong
 *   Kong or Macao, and the reverse.
 * Other addresses are free text (length-limited by the schema).
 */

export function checkAddress(field: string, address: string, mainland: boolean): FieldProblem[] {
  if (!mainland && !startsWithMainlandProvince(address)) return [];
  const verdict = checkMainlandDivisions(address);
  if (verdict.ok) return [];
  return verdict.error === 'addressParts'
    ? [problem(field, 'addressParts')]
    : [problem(field, 'addressDivisionUnknown', { part: verdict.part })];
}
