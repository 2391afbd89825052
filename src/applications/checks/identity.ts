import { problem, type FieldProblem } from '../../errors/problems.ts';
import { isRealDate } from './dates.ts';

/**
 * The identity document number (`cert_id`) for its type (`cert_type`: `00` identity card, `02`
 * passport) and the applicant's `country`.
 *
 * - Mainland identity card (`00`, `CN`): GB 11643-1999, 18 characters; ISO 7064 MOD 11-2 check
 *   digit; the first two digits a real province; digits 7-14 the birth date, equal to `birthday`;
 *   the 17th digit odd for `M`, even for `F`.
 * - Hong Kong identity card (`00`, `HK`): `A123456(7)` or `AB123456(7)`, parentheses optional,
 *   capital letters; mod-11 check digit (`A` stands for 10).
 * - Other identity cards: 4-20 letters or digits, optionally split by single spaces or hyphens and
 *   optionally ending in a check character in parentheses (Macao: `1234567(8)`).
 * - Passports (`02`): 5-9 capital letters or digits with at least one digit; a mainland passport
 *   (`CN`) also has a Chinese passport form: `E` + 8 digits, `E` + letter + 7 digits, `G` + 8 digits,
 *   or `D`/`S`/`P` (optionally followed by `E`) + 7 digits for diplomatic, service and official ones.
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

const GB11643_WEIGHTS = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2] as const;
const GB11643_CHECK = '10X98765432';
const GB11643_SHAPE = /^\d{17}[\dXx]$/;

/**
 * The GB 11643-1999 check character (ISO 7064 MOD 11-2) of the first 17 digits, `0`-`9` or `X`.
 * `body17` must be 17 ASCII digits.
 */
export function gb11643CheckDigit(body17: string): string {
  let sum = 0;
  for (let i = 0; i < 17; i++) sum += (body17.charCodeAt(i) - 48) * GB11643_WEIGHTS[i]!;
  return GB11643_CHECK[sum % 11]!;
}

const HKID_SHAPE = /^([A-Z]{1,2})(\d{6})(?:\(([0-9A])\)|([0-9A]))$/;

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

const NATIONAL_ID = /^[A-Za-z0-9]+(?:[ -][A-Za-z0-9]+)*(?:\([A-Za-z0-9]\))?$/;
const ALNUM = /[A-Za-z0-9]/g;
const PASSPORT = /^(?=[A-Z]*\d)[A-Z0-9]{5,9}$/;
const PASSPORT_LOWER = /[a-z]/;
const CN_PASSPORT = /^(?:E\d{8}|E[A-Z]\d{7}|G\d{8}|[DSP]E?\d{7})$/;

const RULES = {
  cnId: {
    rule: 'must be 18 characters: 17 digits followed by a digit or X',
    rule_zh: '须为18位：17位数字加1位数字或X',
  },
  hkId: {
    rule: 'must be a Hong Kong identity card number such as A123456(7): one or two capital letters, six digits and a check digit',
    rule_zh: '须为香港身份证号码，如 A123456(7)：1至2个大写字母、6位数字和校验位',
  },
  nationalId: {
    rule: 'must be 4 to 20 letters or digits, optionally separated by single spaces or hyphens, optionally ending in a check character in parentheses',
    rule_zh: '须为4至20位字母或数字，可用单个空格或连字符分隔，末尾可带括号内的校验位',
  },
  passportCase: {
    rule: 'a passport number must be written in capital letters and digits',
    rule_zh: '护照号码须使用大写字母和数字',
  },
} as const;

export interface IdentityInput {
  readonly cert_type: string;
  readonly cert_id: string;
  readonly country: string;
  /** Leave out when `birthday` failed its own check: no comparison is made. */
  readonly birthday?: string | undefined;
  /** Leave out when `sex` failed its own check: no comparison is made. */
  readonly sex?: string | undefined;
}

export function checkIdentity(input: IdentityInput): FieldProblem[] {
  if (input.cert_type === '00') {
    if (input.country === 'CN') return checkMainlandId(input);
    if (input.country === 'HK') return checkHongKongId(input.cert_id);
    return checkNationalId(input.cert_id);
  }
  if (input.cert_type === '02') return checkPassport(input.cert_id, input.country);
  return [];
}

function checkMainlandId(input: IdentityInput): FieldProblem[] {
  const id = input.cert_id;
  if (!GB11643_SHAPE.test(id)) return [problem(FIELD, 'certFormat', RULES.cnId)];
  const problems: FieldProblem[] = [];
  if (!PROVINCE_CODES.has(id.slice(0, 2))) problems.push(problem(FIELD, 'certRegionUnknown'));
  if (gb11643CheckDigit(id) !== id[17]!.toUpperCase()) problems.push(problem(FIELD, 'certCheckDigit'));
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

function checkHongKongId(id: string): FieldProblem[] {
  const m = HKID_SHAPE.exec(id);
  if (m === null) return [problem(FIELD, 'certFormat', RULES.hkId)];
  const check = m[3] ?? m[4]!;
  return hkidCheckDigit(m[1]!, m[2]!) === check ? [] : [problem(FIELD, 'certCheckDigit')];
}

function checkNationalId(id: string): FieldProblem[] {
  const count = id.match(ALNUM)?.length ?? 0;
  return NATIONAL_ID.test(id) && count >= 4 && count <= 20
    ? []
    : [problem(FIELD, 'certFormat', RULES.nationalId)];
}

function checkPassport(id: string, country: string): FieldProblem[] {
  if (PASSPORT_LOWER.test(id)) return [problem(FIELD, 'certFormat', RULES.passportCase)];
  if (!PASSPORT.test(id)) return [problem(FIELD, 'passportFormat')];
  if (country === 'CN' && !CN_PASSPORT.test(id)) return [problem(FIELD, 'passportFormat')];
  return [];
}
