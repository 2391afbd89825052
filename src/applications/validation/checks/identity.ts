import { ISO_NUMERIC } from '../../../codes/isoNumeric.ts';
import { problem, type FieldProblem } from '../../../errors/problems.ts';
import { isRealDate } from '../../../record/dates.ts';
import { checkPassportNumber } from './passports.ts';

/**
 * The identity document number (`cert_id`) for its type (`cert_type`: `00` identity card, `02`
 * passport) and the applicant's `country`. It is judged in its canonical reading
 * (`canonicalDocumentNumber`: upper case, no spaces, no brackets around the check character).
 *
 * Identity cards (`00`), by `country`:
 * - `CN`: the mainland identity card, GB 11643-1999: 18 characters, ISO 7064 MOD 11-2 check
 *   character; the first two digits a real province; digits 7-14 the birth date, equal to
 *   `birthday`; the 17th digit odd for `M`, even for `F`. The residence permits of Hong Kong, Macao
 *   and Taiwan residents (`810000`, `820000`, `830000`) are accepted here too.
 * - `HK`: the Hong Kong identity card, `A123456(3)` or `AB123456(9)`: mod-11 check character (`A`
 *   is 10); or the Hong Kong residents' residence permit (`810000` + GB 11643).
 * - `MO`: the Macao identity card, `1234567(8)`: 1, 5 or 7, six digits and a check digit; or the
 *   Macao residents' residence permit (`820000` + GB 11643). The Macao check digit's algorithm is
 *   not published by its issuer (DSI), so only the form is checked.
 * - `TW`: the Taiwan identity card, `A123456789`: a letter, 1 or 2 (sex), seven digits and a check
 *   digit (the letter as two digits, weights 1 9 8 7 6 5 4 3 2 1 1, sum divisible by 10); or the
 *   Taiwan residents' residence permit (`830000` + GB 11643).
 * - Any other country: the foreigner's permanent residence card of 2023 when the number is 18
 *   characters starting with 9 (`9` + issuing province + ISO 3166-1 numeric nationality + birth
 *   date + sequence and sex + GB 11643 check character: nationality, birth date and sex must
 *   agree); otherwise a national identity card: 4-20 letters or digits, hyphens between them
 *   allowed, optionally ending in a bracketed check character.
 *
 * Passports (`02`): judged by the issuing country's form (`passports.ts`).
 */

const FIELD = 'cert_id';

/** Province-level codes of GB/T 2260 (incl. 71 Taiwan, 81 Hong Kong, 82 Macao). */
export const PROVINCE_CODES: ReadonlySet<string> = new Set([
  '11', '12', '13', '14', '15', // 北京 天津 河北 山西 内蒙古
  '21', '22', '23', // 辽宁 吉林 黑龙江
  '31', '32', '33', '34', '35', '36', '37', // 上海 江苏 浙江 安徽 福建 江西 山东
  '41', '42', '43', '44', '45', '46', // 河南 湖北 湖南 广东 广西 海南
  '50', '51', '52', '53', '54', // 重庆 四川 贵州 云南 西藏
  '61', '62', '63', '64', '65', // 陕西 甘肃 青海 宁夏 新疆
  '71', '81', '82', // 台湾 香港 澳门
]); // prettier-ignore

/** The region codes of the residence permits of Hong Kong, Macao and Taiwan residents, by holder. */
export const PERMIT_PREFIXES: Readonly<Record<string, string>> = { HK: '810000', MO: '820000', TW: '830000' };
const PERMITS = new Set(Object.values(PERMIT_PREFIXES));

const GB11643_WEIGHTS = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2] as const;
const GB11643_CHECK = '10X98765432';
const GB11643_SHAPE = /^\d{17}[\dX]$/;

/**
 * The GB 11643-1999 check character (ISO 7064 MOD 11-2) of the first 17 digits, `0`-`9` or `X`.
 * `body17` must be 17 ASCII digits.
 */
export function gb11643CheckDigit(body17: string): string {
  let sum = 0;
  for (let i = 0; i < 17; i++) sum += (body17.charCodeAt(i) - 48) * GB11643_WEIGHTS[i]!;
  return GB11643_CHECK[sum % 11]!;
}

/**
 * The Hong Kong identity card check character of a prefix of one or two capital letters and six
 * digits (`A123456` gives `3`). Letters count A=10 ... Z=35; a one-letter prefix is preceded by an
 * implied 36. The two letter positions weigh 9 and 8, the digits 7 down to 2; the check is
 * (11 - sum mod 11) mod 11, with 10 written `A`.
 */
export function hkidCheckDigit(prefix: string, digits: string): string {
  const letters =
    prefix.length === 1 ? [36, prefix.charCodeAt(0) - 55] : [...prefix].map((c) => c.charCodeAt(0) - 55);
  let sum = letters[0]! * 9 + letters[1]! * 8;
  for (let i = 0; i < 6; i++) sum += (digits.charCodeAt(i) - 48) * (7 - i);
  const check = (11 - (sum % 11)) % 11;
  return check === 10 ? 'A' : String(check);
}

/** The Taiwan identity card's letters in the order of their values 10, 11, ... 35. */
const TAIWAN_LETTERS = 'ABCDEFGHJKLMNPQRSTUVXYWZIO';

/**
 * The check digit of a Taiwan identity card number from its letter and first eight digits
 * (`A12345678` gives `9`): the letter's value (A=10, B=11 ... in TAIWAN_LETTERS order) as two
 * digits weighing 1 and 9, the eight digits weighing 8 down to 1; the check digit makes the sum
 * divisible by 10.
 */
export function taiwanIdCheckDigit(body9: string): string {
  const value = TAIWAN_LETTERS.indexOf(body9[0]!) + 10;
  let sum = Math.floor(value / 10) + (value % 10) * 9;
  for (let i = 1; i <= 8; i++) sum += (body9.charCodeAt(i) - 48) * (9 - i);
  return String((10 - (sum % 10)) % 10);
}

const HKID_SHAPE = /^([A-Z]{1,2})(\d{6})([0-9A])$/;
const MACAO_ID_SHAPE = /^[157]\d{7}$/;
const TAIWAN_ID_SHAPE = /^[A-Z][12]\d{8}$/;
const PR_CARD_SHAPE = /^9\d{16}[\dX]$/;
const NATIONAL_ID = /^[A-Z0-9]+(?:-[A-Z0-9]+)*$/;
const ALNUM = /[A-Z0-9]/g;

type Rule = { readonly rule: string; readonly rule_zh: string };

const RULES = {
  cnId: {
    rule: 'must be 18 characters: 17 digits followed by a digit or X',
    rule_zh: '须为18位：17位数字加1位数字或X',
  },
  hkId: {
    rule: 'must be a Hong Kong identity card number such as A123456(3): one or two letters, six digits and a check character',
    rule_zh: '须为香港身份证号码，如 A123456(3)：1至2个字母、6位数字和校验位',
  },
  moId: {
    rule: 'must be a Macao identity card number such as 1234567(8): 1, 5 or 7, six more digits and a check digit',
    rule_zh: '须为澳门身份证号码，如 1234567(8)：以1、5或7开头，再加6位数字和1位校验位',
  },
  twId: {
    rule: 'must be a Taiwan identity card number such as A123456789: a letter, 1 or 2, and eight digits',
    rule_zh: '须为台湾身份证号码，如 A123456789：1个字母、数字1或2，再加8位数字',
  },
  nationalId: {
    rule: 'must be 4 to 20 letters or digits, optionally separated by hyphens, optionally ending in a check character in brackets',
    rule_zh: '须为4至20位字母或数字，可用连字符分隔，末尾可带括号内的校验位',
  },
} as const satisfies Record<string, Rule>;

/** The residence permit rule of a holder's place, named in English and Chinese. */
function permitRule(country: string): Rule {
  const place = { HK: ['Hong Kong', '香港'], MO: ['Macao', '澳门'], TW: ['Taiwan', '台湾'] }[country] ?? [
    '',
    '',
  ];
  const prefix = PERMIT_PREFIXES[country]!;
  return {
    rule: `a residence permit of a ${place[0]} resident is 18 characters starting with ${prefix}`,
    rule_zh: `${place[1]}居民居住证号码为以 ${prefix} 开头的18位号码`,
  };
}

/**
 * A format problem that says what is wrong: a separator or stray bracket the number does not take
 * is named before the rule (the character itself is punctuation, never part of the number).
 */
function formatProblem(id: string, rule: Rule) {
  const stray = /[^0-9A-Z]/.exec(id)?.[0];
  if (stray === '(' || stray === ')') {
    return problem(FIELD, 'certFormat', {
      rule: `brackets are read only around the last character, the check character; it ${rule.rule}`,
      rule_zh: `括号只用于最后一位校验位；${rule.rule_zh}`,
    });
  }
  if (stray !== undefined && /[!-/:-@[-`{-~]/.test(stray)) {
    return problem(FIELD, 'certFormat', {
      rule: `"${stray}" is not part of this number; it ${rule.rule}`,
      rule_zh: `号码中不能有“${stray}”；${rule.rule_zh}`,
    });
  }
  return problem(FIELD, 'certFormat', rule);
}

export interface IdentityInput {
  readonly cert_type: string;
  /** The canonical document number (`canonicalDocumentNumber`). */
  readonly cert_id: string;
  readonly country: string;
  /** Leave out when `birthday` failed its own check: no comparison is made. */
  readonly birthday?: string | undefined;
  /** Leave out when `sex` failed its own check: no comparison is made. */
  readonly sex?: string | undefined;
}

export function checkIdentity(input: IdentityInput): FieldProblem[] {
  const id = input.cert_id;
  if (input.cert_type === '02') return checkPassportNumber(FIELD, id, input.country);
  if (input.cert_type !== '00') return [];
  switch (input.country) {
    case 'CN':
      return checkMainlandId(input);
    case 'HK':
    case 'MO':
    case 'TW':
      if (GB11643_SHAPE.test(id) || /^8[1-3]0000/.test(id)) return checkResidencePermit(input);
      if (input.country === 'HK') return checkHongKongId(id);
      if (input.country === 'MO') return MACAO_ID_SHAPE.test(id) ? [] : [formatProblem(id, RULES.moId)];
      return checkTaiwanId(id);
    default:
      if (PR_CARD_SHAPE.test(id)) return checkPermanentResidenceCard(input);
      return checkNationalId(id);
  }
}

/** Check character, embedded birth date and sex of an 18-character GB 11643 number of the right shape. */
function gb11643Problems(input: IdentityInput): FieldProblem[] {
  const id = input.cert_id;
  const problems: FieldProblem[] = [];
  if (gb11643CheckDigit(id) !== id[17]) problems.push(problem(FIELD, 'certCheckDigit'));
  if (input.birthday !== undefined) {
    const embedded = `${id.slice(6, 10)}-${id.slice(10, 12)}-${id.slice(12, 14)}`;
    if (!isRealDate(embedded) || embedded !== input.birthday)
      problems.push(problem(FIELD, 'certBirthMismatch'));
  }
  if (input.sex !== undefined) {
    const embeddedSex = (id.charCodeAt(16) - 48) % 2 === 1 ? 'M' : 'F';
    if (embeddedSex !== input.sex) problems.push(problem(FIELD, 'certSexMismatch'));
  }
  return problems;
}

function checkMainlandId(input: IdentityInput): FieldProblem[] {
  const id = input.cert_id;
  if (!GB11643_SHAPE.test(id)) return [formatProblem(id, RULES.cnId)];
  const region = id.slice(0, 2);
  // Hong Kong, Macao and Taiwan residents' permits carry exactly 810000, 820000 or 830000.
  const permit = region === '81' || region === '82' || region === '83';
  const known = permit ? PERMITS.has(id.slice(0, 6)) : PROVINCE_CODES.has(region);
  const problems = gb11643Problems(input);
  return known ? problems : [problem(FIELD, 'certRegionUnknown'), ...problems];
}

function checkResidencePermit(input: IdentityInput): FieldProblem[] {
  const id = input.cert_id;
  if (!GB11643_SHAPE.test(id) || id.slice(0, 6) !== PERMIT_PREFIXES[input.country]) {
    return [formatProblem(id, permitRule(input.country))];
  }
  return gb11643Problems(input);
}

function checkHongKongId(id: string): FieldProblem[] {
  const m = HKID_SHAPE.exec(id);
  if (m === null) return [formatProblem(id, RULES.hkId)];
  return hkidCheckDigit(m[1]!, m[2]!) === m[3] ? [] : [problem(FIELD, 'certCheckDigit')];
}

function checkTaiwanId(id: string): FieldProblem[] {
  if (!TAIWAN_ID_SHAPE.test(id)) return [formatProblem(id, RULES.twId)];
  return taiwanIdCheckDigit(id) === id[9] ? [] : [problem(FIELD, 'certCheckDigit')];
}

/**
 * The foreigner's permanent residence card of 2023 (National Immigration Administration): `9`, the
 * issuing province (2 digits), the nationality (ISO 3166-1 numeric, 3 digits), the birth date, two
 * sequence digits, a sex digit (odd male) and a GB 11643 check character.
 */
function checkPermanentResidenceCard(input: IdentityInput): FieldProblem[] {
  const id = input.cert_id;
  const problems: FieldProblem[] = [];
  const province = id.slice(1, 3);
  if (!PROVINCE_CODES.has(province) || ['71', '81', '82'].includes(province))
    problems.push(problem(FIELD, 'certRegionUnknown'));
  const nationality = ISO_NUMERIC[input.country];
  if (nationality !== undefined && id.slice(3, 6) !== nationality)
    problems.push(problem(FIELD, 'certNationalityMismatch'));
  return [...problems, ...gb11643Problems(input)];
}

function checkNationalId(id: string): FieldProblem[] {
  const count = id.match(ALNUM)?.length ?? 0;
  // A bracketed check character was read without its brackets; other brackets stay and fail here.
  return NATIONAL_ID.test(id) && count >= 4 && count <= 20 ? [] : [formatProblem(id, RULES.nationalId)];
}
