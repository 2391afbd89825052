import { createRequire } from 'node:module';
import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import { problem, type FieldProblem } from '../../errors/problems.ts';

/**
 * Phone numbers and the e-mail address.
 *
 * Phones: the number is sent without its area code (`13800138000` with `+86`), digits only. It is
 * read as `+<area><number>` against libphonenumber's full metadata. A national trunk prefix the
 * numbering plan defines (`0` in China and the United Kingdom, `1` in North America) may be left in
 * front (`013800138000` with `+86` is the same number); repeating the calling code is not accepted.
 * - `mob_no`, `consignee_mob_no`: a valid number of type MOBILE or FIXED_LINE_OR_MOBILE (numbering
 *   plans such as the North American one do not tell the two apart).
 * - `office_tel_no`: a valid number of any type (fixed line, mobile, toll-free, shared-cost, VoIP...).
 * - An area code that is no known country calling code: `areaCodeInvalid` on the area field, and the
 *   number itself is not judged.
 *
 * E-mail: ASCII only (internationalised domains in their `xn--` form); a dot-atom local part of at
 * most 64 characters (no quoted local parts, no leading, trailing or double dots); one `@`; a domain
 * of at least two LDH labels (1-63 characters, no hyphen at either end), at most 253 characters,
 * whose last label is letters (2 or more) or an `xn--` label.
 */

const require = createRequire(import.meta.url);
const metadata = require('libphonenumber-js/metadata.max.json') as {
  country_calling_codes: Record<string, unknown>;
  nonGeographic?: Record<string, unknown>;
};
/** Every calling code libphonenumber knows, geographic or not (`1`, `86`, `852`, `800`, `881` ...). */
const CALLING_CODES: ReadonlySet<string> = new Set([
  ...Object.keys(metadata.country_calling_codes),
  ...Object.keys(metadata.nonGeographic ?? {}),
]);

const AREA = /^\+([0-9]{1,4})$/;
const DIGITS = /^[0-9]{2,17}$/;

export type PhoneKind = 'mobile' | 'telephone';
const KIND_ZH: Record<PhoneKind, string> = { mobile: '手机', telephone: '电话' };

export function isKnownCallingCode(area: string): boolean {
  const m = AREA.exec(area);
  return m !== null && CALLING_CODES.has(m[1]!);
}

/** The last answer: an application often gives the same mobile number twice (applicant, consignee). */
let last = { key: '', valid: false };

/** Whether `number` (digits, no area code) is a valid number of `kind` for the calling code `area`. */
export function isValidPhone(number: string, area: string, kind: PhoneKind): boolean {
  const key = `${kind} ${area} ${number}`;
  if (key !== last.key) last = { key, valid: judgePhone(number, area, kind) };
  return last.valid;
}

function judgePhone(number: string, area: string, kind: PhoneKind): boolean {
  if (!DIGITS.test(number) || !isKnownCallingCode(area)) return false;
  const parsed = parsePhoneNumberFromString(`${area}${number}`);
  if (parsed === undefined || `+${parsed.countryCallingCode}` !== area) return false;
  if (kind === 'telephone') return parsed.isValid();
  // A number has a type only when it is valid, so the type alone answers (and saves a second pass).
  const type = parsed.getType();
  return type === 'MOBILE' || type === 'FIXED_LINE_OR_MOBILE';
}

export interface PhoneInput {
  readonly field: string;
  readonly areaField: string;
  /** Leave out when the number failed an earlier check. */
  readonly number?: string | undefined;
  /** Leave out when the area code failed an earlier check. */
  readonly area?: string | undefined;
  readonly kind: PhoneKind;
}

export function checkPhone(input: PhoneInput): FieldProblem[] {
  if (input.area === undefined) return [];
  if (!isKnownCallingCode(input.area)) return [problem(input.areaField, 'areaCodeInvalid')];
  if (input.number === undefined || isValidPhone(input.number, input.area, input.kind)) return [];
  return [
    problem(input.field, 'phoneInvalid', {
      kind: input.kind,
      kind_zh: KIND_ZH[input.kind],
      area: input.area,
    }),
  ];
}

const LOCAL_PART = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/;
const LABEL = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/;
const TOP_LABEL = /^(?:[A-Za-z]{2,63}|[Xx][Nn]--[A-Za-z0-9-]{1,59})$/;

export function isWellFormedEmail(email: string): boolean {
  const at = email.indexOf('@');
  if (at < 1 || at !== email.lastIndexOf('@')) return false;
  const local = email.slice(0, at);
  const domain = email.slice(at + 1);
  if (local.length > 64 || !LOCAL_PART.test(local)) return false;
  if (domain.length === 0 || domain.length > 253) return false;
  const labels = domain.split('.');
  if (labels.length < 2 || !labels.every((label) => LABEL.test(label))) return false;
  return TOP_LABEL.test(labels[labels.length - 1]!);
}

export function checkEmail(email: string): FieldProblem[] {
  return isWellFormedEmail(email) ? [] : [problem('email', 'emailInvalid')];
}
