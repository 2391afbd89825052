import { createRequire } from 'node:module';
import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import { problem, type FieldProblem } from '../../../errors/problems.ts';
import {
  readEmail,
  type AreaReading,
  type EmailReading,
  type PhoneReading,
} from '../../../record/canonical.ts';

/**
 * Phone numbers and the e-mail address, in their canonical readings (`readPhone`, `readAreaCode`,
 * `readEmail`).
 *
 * Phones: spaces, hyphens and parentheses are read past; the number is read as
 * `+<calling code><number>` against libphonenumber's full metadata. A national trunk prefix the
 * numbering plan defines (`0` in China and the United Kingdom, `1` in North America) may be left in
 * front (`013800138000` with `+86` is the same number); repeating the calling code is not accepted.
 * - `mob_no`: a valid number of type MOBILE or FIXED_LINE_OR_MOBILE (numbering plans such as the
 *   North American one do not tell the two apart); `mob_no_of` a calling code written with `+`.
 * - `consignee_mob_no`: any valid telephone number (the spec calls it the recipient's telephone
 *   number); `consignee_mob_no_of` a calling code with or without its `+` (`+852`, `852`, `0086`).
 * - `office_tel_no`: any valid telephone number, optionally with an extension (`ext. 801`, `转801`,
 *   `#801`, or a last hyphen group `-801` when the number is valid without it);
 *   `office_tel_no_of` a calling code with or without its `+` (`+86`, `86`) or a mainland area code
 *   (`0755`, `755`), and the number is judged as the whole number they make; digits that read both
 *   ways (`852`) are tried both ways, and whichever makes a valid number is taken. When the number
 *   already holds the area code (`0755-26000000` with `0755`) or is a mainland mobile number, it is
 *   judged by itself.
 * - A calling code that is no known one: `areaCodeInvalid` on the area field, and the number
 *   itself is not judged.
 *
 * E-mail: an ASCII dot-atom local part of at most 64 characters (no quoted local parts, no leading,
 * trailing or double dots); one `@`; a domain in Unicode or in its `xn--` form, whose ASCII form
 * has at least two LDH labels (1-63 characters, no hyphen at either end), at most 253 characters,
 * and a last label of letters (2 or more) or an `xn--` label.
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

/** The last answers: an application often gives the same mobile number twice (applicant, consignee). */
const recent = new Map<string, PhoneType | undefined>();

/** What libphonenumber makes of `+<callingCode><digits>`: its type when valid, else undefined. */
type PhoneType = 'mobile' | 'fixed';

function phoneType(digits: string, callingCode: string): PhoneType | undefined {
  const key = `${callingCode} ${digits}`;
  if (recent.has(key)) return recent.get(key);
  let type: PhoneType | undefined;
  if (DIGITS.test(digits) && CALLING_CODES.has(callingCode)) {
    const parsed = parsePhoneNumberFromString(`+${callingCode}${digits}`);
    // A number has a type only when it is valid, so the type alone answers (and saves a second pass).
    const t =
      parsed !== undefined && parsed.countryCallingCode === callingCode ? parsed.getType() : undefined;
    if (t !== undefined) type = t === 'MOBILE' || t === 'FIXED_LINE_OR_MOBILE' ? 'mobile' : 'fixed';
  }
  if (recent.size >= 8) recent.clear();
  recent.set(key, type);
  return type;
}

/** Whether `number` (digits, no area code) is a valid number of `kind` for the calling code `area` (`+86`). */
export function isValidPhone(number: string, area: string, kind: PhoneKind): boolean {
  const m = AREA.exec(area);
  if (m === null) return false;
  const type = phoneType(number, m[1]!);
  return kind === 'telephone' ? type !== undefined : type === 'mobile';
}

export interface PhoneInput {
  readonly field: string;
  readonly areaField: string;
  /** The number as read; leave out when it failed an earlier check. */
  readonly number?: PhoneReading | undefined;
  /** The area code as read; leave out when it failed an earlier check. */
  readonly area?: AreaReading | undefined;
  readonly kind: PhoneKind;
  /** The office number: an extension, and a domestic area code in the area field, are accepted. */
  readonly office?: boolean;
  /** The area field takes a calling code with or without its `+` (`consignee_mob_no_of`). */
  readonly plusOptional?: boolean;
}

/** Mainland mobile numbers: they take no area code. */
const MAINLAND_MOBILE = /^1[3-9][0-9]{9}$/;

/** One reading of an area field: a known calling code, or a mainland area code (office only). */
type AreaMeaning = { readonly calling: string } | { readonly domestic: string };

/** The readings of an area field that can make a number; none when it is no area code at all. */
function meanings(area: AreaReading, office: boolean): AreaMeaning[] {
  const found: AreaMeaning[] = [];
  const calling = area.kind === 'calling' ? area.code : area.kind === 'either' ? area.calling : undefined;
  if (calling !== undefined && CALLING_CODES.has(calling)) found.push({ calling });
  const domestic = area.kind === 'domestic' ? area.code : area.kind === 'either' ? area.domestic : undefined;
  if (office && domestic !== undefined) found.push({ domestic });
  return found;
}

/** The whole numbers a number and one reading of its area code may make, as [calling code, digits]. */
function candidates(digits: string, meaning: AreaMeaning): [string, string][] {
  if ('calling' in meaning) return [[meaning.calling, digits]];
  const code = meaning.domestic;
  const whole: [string, string][] = [['86', `${code}${digits}`]];
  // The number alone when it already holds the area code (`0755-26000000`) or is a mobile number.
  if (digits.startsWith(code) || digits.startsWith(`0${code}`) || MAINLAND_MOBILE.test(digits))
    whole.push(['86', digits]);
  return whole;
}

const shown = (meaning: AreaMeaning) =>
  'calling' in meaning ? `+${meaning.calling}` : `0${meaning.domestic}`;

export function checkPhone(input: PhoneInput): FieldProblem[] {
  const { area, number, field, kind } = input;
  const office = input.office === true;
  if (area === undefined) return [];
  if (area.kind === 'plusMissing') return [problem(input.areaField, 'areaCodePlusMissing')];
  const readings = meanings(area, office);
  if (readings.length === 0) {
    // A calling code written with its + (or 00) that is none; anything else, for an office, is
    // neither a calling code nor an area code.
    const error =
      office && area.kind !== 'calling'
        ? 'officeAreaCodeInvalid'
        : input.plusOptional === true
          ? 'callingCodeUnknown'
          : 'areaCodeInvalid';
    return [problem(input.areaField, error)];
  }
  if (number === undefined) return [];
  const fault = number.fault;
  if (fault !== undefined) {
    if (fault.kind === 'plus')
      return [problem(field, 'phoneCallingCodeRepeated', { area_field: input.areaField })];
    if (fault.kind === 'separator') return [problem(field, 'phoneSeparator', { char: fault.char })];
    return [problem(field, 'phoneCharacters')];
  }
  if (number.extension !== undefined && !office) return [problem(field, 'phoneExtension')];
  const digits = [number.digits!];
  if (office && number.hyphenExtension !== undefined) digits.push(number.hyphenExtension.digits);
  // Whichever reading of the area field makes a valid number is taken.
  const types = digits.flatMap((d) =>
    readings.flatMap((meaning) => candidates(d, meaning).map(([code, whole]) => phoneType(whole, code))),
  );
  if (kind === 'mobile' ? types.includes('mobile') : types.some((t) => t !== undefined)) return [];
  if (kind === 'mobile' && types.includes('fixed'))
    return [problem(field, 'phoneNotMobile', { area: shown(readings[0]!) })];
  if (readings.length > 1) {
    return [
      problem(field, 'phoneNoAreaReading', {
        area_field: input.areaField,
        calling: shown(readings[0]!),
        domestic: shown(readings[1]!),
      }),
    ];
  }
  return [problem(field, 'phoneInvalid', { kind, kind_zh: KIND_ZH[kind], area: shown(readings[0]!) })];
}

const LOCAL_PART = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/;
const LABEL = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/;
const TOP_LABEL = /^(?:[A-Za-z]{2,63}|[Xx][Nn]--[A-Za-z0-9-]{1,59})$/;

/** Whether an e-mail address, as read by `readEmail`, is well formed. */
export function isWellFormedEmailReading(email: EmailReading | undefined): boolean {
  if (email === undefined) return false;
  const { local, domain } = email;
  if (local.length === 0 || local.length > 64 || !LOCAL_PART.test(local)) return false;
  if (domain.length === 0 || domain.length > 253) return false;
  const labels = domain.split('.');
  if (labels.length < 2 || !labels.every((label) => LABEL.test(label))) return false;
  return TOP_LABEL.test(labels[labels.length - 1]!);
}

export function isWellFormedEmail(email: string): boolean {
  return isWellFormedEmailReading(readEmail(email));
}

export function checkEmail(email: EmailReading | undefined): FieldProblem[] {
  return isWellFormedEmailReading(email) ? [] : [problem('email', 'emailInvalid')];
}
