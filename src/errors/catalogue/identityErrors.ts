import { entry, type CatalogueEntry } from './entry.ts';

/**
 * 422, the applicant and the card: dates and age, the identity document and its number, the names
 * (Chinese, and their pinyin), the payment password and a chosen card number.
 */
export const IDENTITY_ERRORS = {
  dateInvalid: entry(
    42210,
    'date_invalid',
    '{field}: must be a real date in the form YYYY-MM-DD',
    '{field}: 必须是格式为 YYYY-MM-DD 的有效日期',
  ),
  dateInFuture: entry(42211, 'date_in_future', '{field}: must not be in the future', '{field}: 不能晚于今天'),
  underAge: entry(
    42212,
    'under_age',
    '{field}: applicant must be at least {min} years old',
    '{field}: 申请人须年满 {min} 周岁',
  ),
  overAge: entry(
    42213,
    'over_age',
    '{field}: applicant must be at most {max} years old',
    '{field}: 申请人年龄不能超过 {max} 周岁',
  ),
  documentExpired: entry(
    42214,
    'document_expired',
    '{field}: the document has expired',
    '{field}: 证件已过期',
  ),
  documentDatesOrder: entry(
    42215,
    'document_dates_order',
    '{field}: must be after cert_start_date',
    '{field}: 必须晚于 cert_start_date',
  ),
  documentStartRequired: entry(
    42216,
    'document_start_required',
    '{field}: is required except for a Hong Kong identity card',
    '{field}: 除香港身份证外为必填项',
  ),
  certCheckDigit: entry(
    42217,
    'cert_check_digit',
    '{field}: check digit does not match',
    '{field}: 校验位不正确',
  ),
  certBirthMismatch: entry(
    42218,
    'cert_birth_mismatch',
    '{field}: embedded birth date does not match birthday',
    '{field}: 证件号中的出生日期与 birthday 不一致',
  ),
  certSexMismatch: entry(
    42219,
    'cert_sex_mismatch',
    '{field}: embedded sex does not match sex',
    '{field}: 证件号中的性别与 sex 不一致',
  ),
  certRegionUnknown: entry(
    42220,
    'cert_region_unknown',
    '{field}: region code is not a real province',
    '{field}: 地区代码不是有效的省份',
  ),
  certFormat: entry(42221, 'cert_format', '{field}: {rule}', '{field}: {rule_zh}'),
  passportFormat: entry(
    42222,
    'passport_format',
    '{field}: is not a plausible passport number: {rule}',
    '{field}: 不是有效的护照号码：{rule_zh}',
  ),
  nameNotChinese: entry(
    42223,
    'name_not_chinese',
    '{field}: must be written in Chinese characters',
    '{field}: 必须为中文汉字',
  ),
  nameEnNotCapitals: entry(
    42224,
    'name_en_not_capitals',
    '{field}: must be written in capital Latin letters',
    '{field}: 必须为大写拉丁字母',
  ),
  nameEnPinyinMismatch: entry(
    42225,
    'name_en_pinyin_mismatch',
    '{field}: is not the pinyin of name',
    '{field}: 与 name 的拼音不一致',
  ),
  payPwdWeak: entry(
    42234,
    'pay_pwd_weak',
    '{field}: the payment password is too easy to guess',
    '{field}: 支付密码过于简单',
  ),
  cardNoFormat: entry(
    42238,
    'card_no_format',
    '{field}: must be {length} digits',
    '{field}: 必须为 {length} 位数字',
  ),
  cardNoBin: entry(
    42239,
    'card_no_bin',
    '{field}: must start with the product BIN {bin}',
    '{field}: 必须以产品 BIN {bin} 开头',
  ),
  cardNoLuhn: entry(42240, 'card_no_luhn', '{field}: fails the Luhn check', '{field}: 未通过 Luhn 校验'),
  certNationalityMismatch: entry(
    42241,
    'cert_nationality_mismatch',
    '{field}: the nationality code in the number does not match country',
    '{field}: 证件号中的国籍代码与 country 不一致',
  ),
  documentStartBeforeBirth: entry(
    42242,
    'document_start_before_birth',
    '{field}: must not be before birthday',
    '{field}: 不能早于 birthday',
  ),
  nameDigits: entry(42243, 'name_digits', '{field}: must not contain digits', '{field}: 不能包含数字'),
  nameEnSpaces: entry(
    42244,
    'name_en_spaces',
    '{field}: must not begin or end with a space',
    '{field}: 首尾不能有空格',
  ),
  nameEnNotLatin: entry(
    42245,
    'name_en_not_latin',
    '{field}: must be written in Latin letters, with spaces, hyphens, apostrophes, commas or periods between them',
    '{field}: 须用拉丁字母书写，字母之间可有空格、连字符、撇号、逗号或句点',
  ),
  nameEnPinyinForm: entry(42291, 'name_en_pinyin_form', '{field}: {rule}', '{field}: {rule_zh}'),
} as const satisfies Record<string, CatalogueEntry>;
