import { problem, type FieldProblem } from '../../../errors/problems.ts';

/**
 * Passport numbers (`cert_type` `02`) judged by the issuing country (`country`), in their canonical
 * reading (upper case, no spaces). Every passport's number is the document number of its machine
 * readable zone (ICAO Doc 9303 part 4: at most 9 characters, capital letters and digits in the
 * MRZ's document number field); each issuer then gives it a form of its own, published in its
 * notices. `PASSPORT_FORMS` holds the forms of the countries whose citizens most often live in the
 * mainland, Hong Kong and Macao (the forms in force for passports still valid: ten years back),
 * each with its source (docs/VALIDATION.md lists them). Any other country is judged by the ICAO
 * character set and length: 5 to 9 letters and digits, at least one a digit.
 */

interface PassportForm {
  readonly pattern: RegExp;
  /** The lengths the form allows, to say "one character short" rather than "wrong form". */
  readonly lengths: readonly number[];
  readonly country: string;
  readonly country_zh: string;
  /** The form in words, after "a <country> passport number is". */
  readonly form: string;
  readonly form_zh: string;
}

const form = (
  pattern: RegExp,
  lengths: number[],
  country: string,
  country_zh: string,
  text: string,
  text_zh: string,
): PassportForm => ({ pattern, lengths, country, country_zh, form: text, form_zh: text_zh });

// Sources, one a line: see docs/VALIDATION.md, "Passports", for the notice each form comes from.
// prettier-ignore
export const PASSPORT_FORMS: Readonly<Record<string, PassportForm>> = {
  CN: form(/^(?:E\d{8}|E[A-HJ-NP-Z]\d{7}|G\d{8}|[DSP]E?\d{7})$/, [8, 9], 'Chinese', '中国', 'E and 8 digits, E, a letter and 7 digits, G and 8 digits, or D, S or P (optionally followed by E) and 7 digits', 'E 加8位数字、E 加1个字母和7位数字、G 加8位数字，或 D、S、P（其后可加 E）加7位数字'),
  KR: form(/^[MSRGD](?:\d{8}|\d{3}[A-Z]\d{4})$/, [9], 'Korean', '韩国', 'M, S, R, G or D followed by 8 digits, or (since December 2021) by 3 digits, a letter and 4 digits', 'M、S、R、G 或 D 加8位数字，或（2021年12月起）加3位数字、1个字母和4位数字'),
  US: form(/^(?:\d{9}|[A-Z]\d{8})$/, [9], 'United States', '美国', '9 digits, or (since 2021) a letter and 8 digits', '9位数字，或（2021年起）1个字母加8位数字'),
  JP: form(/^[A-Z]{2}\d{7}$/, [9], 'Japanese', '日本', '2 letters and 7 digits', '2个字母加7位数字'),
  PH: form(/^(?:[A-Z]{2}\d{7}|P\d{7}[A-Z])$/, [9], 'Philippine', '菲律宾', '2 letters and 7 digits, or P, 7 digits and a letter', '2个字母加7位数字，或 P 加7位数字再加1个字母'),
  ID: form(/^[A-Z]\d{7}$/, [8], 'Indonesian', '印度尼西亚', 'a letter and 7 digits', '1个字母加7位数字'),
  IN: form(/^[A-Z]\d{7}$/, [8], 'Indian', '印度', 'a letter and 7 digits', '1个字母加7位数字'),
  VN: form(/^[A-Z]\d{7,8}$/, [8, 9], 'Vietnamese', '越南', 'a letter and 7 digits (8 on chip passports)', '1个字母加7位数字（电子护照为8位）'),
  TH: form(/^[A-Z]{1,2}\d{6,7}$/, [7, 8, 9], 'Thai', '泰国', 'one or two letters and 6 or 7 digits', '1至2个字母加6至7位数字'),
  MY: form(/^[AHK]\d{8}$/, [9], 'Malaysian', '马来西亚', 'A, H or K and 8 digits', 'A、H 或 K 加8位数字'),
  SG: form(/^[A-Z]\d{7}[A-Z]$/, [9], 'Singapore', '新加坡', 'a letter, 7 digits and a letter', '1个字母、7位数字再加1个字母'),
  GB: form(/^\d{9}$/, [9], 'British', '英国', '9 digits', '9位数字'),
  IE: form(/^[A-Z0-9]{2}\d{7}$/, [9], 'Irish', '爱尔兰', '2 letters or digits and 7 digits', '2个字母或数字加7位数字'),
  CA: form(/^[A-Z]{2}\d{6}$/, [8], 'Canadian', '加拿大', '2 letters and 6 digits', '2个字母加6位数字'),
  AU: form(/^[A-Z]{1,2}\d{7}$/, [8, 9], 'Australian', '澳大利亚', 'one or two letters and 7 digits', '1至2个字母加7位数字'),
  NZ: form(/^[A-Z]{2}\d{6}$/, [8], 'New Zealand', '新西兰', '2 letters and 6 digits', '2个字母加6位数字'),
  DE: form(/^[CFGHJKLMNPRTVWXYZ0-9]{9}$/, [9], 'German', '德国', '9 characters: digits and the letters C F G H J K L M N P R T V W X Y Z', '9位：数字及字母 C F G H J K L M N P R T V W X Y Z'),
  FR: form(/^\d{2}[A-Z]{2}\d{5}$/, [9], 'French', '法国', '2 digits, 2 letters and 5 digits', '2位数字、2个字母加5位数字'),
  IT: form(/^[A-Z0-9]{2}\d{7}$/, [9], 'Italian', '意大利', '2 letters or digits and 7 digits', '2个字母或数字加7位数字'),
  ES: form(/^[A-Z0-9]{2,3}\d{6}$/, [8, 9], 'Spanish', '西班牙', '2 or 3 letters or digits and 6 digits', '2至3个字母或数字加6位数字'),
  NL: form(/^[A-NP-Z]{2}[A-NP-Z0-9]{6}\d$/, [9], 'Dutch', '荷兰', '2 letters, 6 letters or digits and a digit, never the letter O', '2个字母、6个字母或数字再加1位数字，不用字母 O'),
  BE: form(/^[A-Z]{2}\d{6}$/, [8], 'Belgian', '比利时', '2 letters and 6 digits', '2个字母加6位数字'),
  CH: form(/^[A-Z]\d{7}$/, [8], 'Swiss', '瑞士', 'a letter and 7 digits', '1个字母加7位数字'),
  RU: form(/^\d{9}$/, [9], 'Russian', '俄罗斯', '9 digits (a 2-digit series and a 7-digit number)', '9位数字（2位系列号加7位号码）'),
  TR: form(/^[A-Z]\d{8}$/, [9], 'Turkish', '土耳其', 'a letter and 8 digits', '1个字母加8位数字'),
  NP: form(/^(?:\d{8}|[A-Z]{1,2}\d{7})$/, [8, 9], 'Nepali', '尼泊尔', '8 digits, or one or two letters and 7 digits', '8位数字，或1至2个字母加7位数字'),
  PK: form(/^[A-Z]{2}\d{7}$/, [9], 'Pakistani', '巴基斯坦', '2 letters and 7 digits', '2个字母加7位数字'),
  BD: form(/^[A-Z]{1,2}\d{7,8}$/, [8, 9, 10], 'Bangladeshi', '孟加拉国', 'one or two letters and 7 or 8 digits', '1至2个字母加7至8位数字'),
  LK: form(/^[A-Z]{1,2}\d{7}$/, [8, 9], 'Sri Lankan', '斯里兰卡', 'one or two letters and 7 digits', '1至2个字母加7位数字'),
  MM: form(/^[A-Z]{1,2}\d{6,7}$/, [7, 8, 9], 'Myanmar', '缅甸', 'one or two letters and 6 or 7 digits', '1至2个字母加6至7位数字'),
  MN: form(/^[A-Z]{1,2}\d{6,7}$/, [7, 8, 9], 'Mongolian', '蒙古国', 'one or two letters and 6 or 7 digits', '1至2个字母加6至7位数字'),
  KZ: form(/^[A-Z]\d{8}$/, [9], 'Kazakh', '哈萨克斯坦', 'a letter and 8 digits', '1个字母加8位数字'),
  BR: form(/^[A-Z]{2}\d{6}$/, [8], 'Brazilian', '巴西', '2 letters and 6 digits', '2个字母加6位数字'),
  MX: form(/^(?:[A-Z]\d{8}|\d{10,11})$/, [9, 10, 11], 'Mexican', '墨西哥', 'a letter and 8 digits (10 or 11 digits on older ones)', '1个字母加8位数字（旧护照为10至11位数字）'),
  ZA: form(/^(?:[A-Z]\d{8}|\d{9})$/, [9], 'South African', '南非', 'a letter and 8 digits', '1个字母加8位数字'),
};

/** The ICAO 9303 document number, for any other country: 5 to 9 letters and digits, one a digit. */
const ICAO_NUMBER = /^(?=[A-Z]*\d)[A-Z0-9]{5,9}$/;
const ICAO_RULE = {
  rule: 'must be 5 to 9 letters and digits, at least one of them a digit',
  rule_zh: '须为5至9位字母和数字，至少含1位数字',
} as const;

/** The rule a number breaks, in English and Chinese; a wrong length is said first. */
function ruleOf(id: string, passport: PassportForm): { rule: string; rule_zh: string } {
  const is = `a ${passport.country} passport number is ${passport.form}`;
  const is_zh = `${passport.country_zh}护照号码为${passport.form_zh}`;
  const allowed = passport.lengths;
  if (/^[A-Z0-9]+$/.test(id) && !allowed.includes(id.length)) {
    const expected =
      allowed.length === 1 ? `${allowed[0]}` : `${allowed.slice(0, -1).join(', ')} or ${allowed.at(-1)}`;
    const expected_zh = allowed.join('、');
    return {
      rule: `it has ${id.length} characters where ${is} (${expected} characters)`,
      rule_zh: `长度为${id.length}位，而${is_zh}（共${expected_zh}位）`,
    };
  }
  return { rule: is, rule_zh: is_zh };
}

/**
 * A punctuation mark or bracket is named before the rule (it is never part of a number, so naming
 * it reveals nothing of the number).
 */
function formatProblem(field: string, id: string, rule: { rule: string; rule_zh: string }): FieldProblem {
  const stray = /[^0-9A-Z]/.exec(id)?.[0];
  if (stray !== undefined && /[!-/:-@[-`{-~]/.test(stray)) {
    return problem(field, 'passportFormat', {
      rule: `"${stray}" is not part of a passport number; ${rule.rule}`,
      rule_zh: `护照号码中不能有“${stray}”；${rule.rule_zh}`,
    });
  }
  return problem(field, 'passportFormat', rule);
}

/** Problems of a passport number (canonical) issued by `country`. */
export function checkPassportNumber(field: string, id: string, country: string): FieldProblem[] {
  const passport = PASSPORT_FORMS[country];
  if (passport === undefined) return ICAO_NUMBER.test(id) ? [] : [formatProblem(field, id, ICAO_RULE)];
  return passport.pattern.test(id) ? [] : [formatProblem(field, id, ruleOf(id, passport))];
}
