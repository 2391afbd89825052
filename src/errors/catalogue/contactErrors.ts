import { entry, type CatalogueEntry } from './entry.ts';

/**
 * 422, how to reach the applicant: telephone numbers and their calling or area codes, the e-mail
 * address, the mainland address and its divisions.
 */
export const CONTACT_ERRORS = {
  phoneInvalid: entry(
    42226,
    'phone_invalid',
    '{field}: is not a valid {kind} number for {area}',
    '{field}: 不是 {area} 的有效{kind_zh}号码',
  ),
  areaCodeInvalid: entry(
    42227,
    'area_code_invalid',
    '{field}: must be a known calling code written as +digits',
    '{field}: 必须是以 + 开头的有效国际区号',
  ),
  emailInvalid: entry(
    42228,
    'email_invalid',
    '{field}: is not a well-formed e-mail address',
    '{field}: 不是格式正确的电子邮箱地址',
  ),
  addressParts: entry(
    42229,
    'address_parts',
    '{field}: a mainland address must be province-city-district-detail joined by -{hint}',
    '{field}: 大陆地址须为 省-市-区-详细地址，以 - 连接{hint_zh}',
  ),
  addressDivisionUnknown: entry(
    42230,
    'address_division_unknown',
    '{field}: unknown {part}: {detail}',
    '{field}: 未知的{part_zh}：{detail_zh}',
  ),
  phoneSeparator: entry(
    42246,
    'phone_separator',
    '{field}: "{char}" is not a separator a telephone number may contain; spaces, hyphens and parentheses are',
    '{field}: 电话号码中不能用“{char}”分隔，可用空格、连字符和括号',
  ),
  phoneCharacters: entry(
    42247,
    'phone_characters',
    '{field}: must be digits, optionally separated by spaces, hyphens or parentheses',
    '{field}: 须为数字，可用空格、连字符或括号分隔',
  ),
  phoneCallingCodeRepeated: entry(
    42248,
    'phone_calling_code_repeated',
    '{field}: must not repeat the calling code; it belongs in {area_field}',
    '{field}: 不能重复国际区号，区号应填在 {area_field}',
  ),
  phoneExtension: entry(
    42249,
    'phone_extension',
    '{field}: an extension is accepted only on office_tel_no',
    '{field}: 仅 office_tel_no 可带分机号',
  ),
  phoneNotMobile: entry(
    42252,
    'phone_not_mobile',
    '{field}: is a fixed-line number; a mobile number for {area} is required',
    '{field}: 是固定电话号码，须为 {area} 的手机号码',
  ),
  areaCodePlusMissing: entry(
    42253,
    'area_code_plus_missing',
    '{field}: a calling code is written with a leading +, such as +86',
    '{field}: 国际区号须以 + 开头，如 +86',
  ),
  officeAreaCodeInvalid: entry(
    42254,
    'office_area_code_invalid',
    '{field}: must be a known calling code such as +86, or a mainland area code such as 0755',
    '{field}: 须为有效的国际区号（如 +86）或大陆长途区号（如 0755）',
  ),
  phoneNoAreaReading: entry(
    42290,
    'phone_no_area_reading',
    '{field}: makes no valid telephone number with {area_field}, read either as the calling code {calling} or as the mainland area code {domestic}',
    '{field}: 与 {area_field} 组合不是有效的电话号码：{area_field} 按国际区号 {calling} 或大陆长途区号 {domestic} 解读均不成立',
  ),
  callingCodeUnknown: entry(
    42292,
    'calling_code_unknown',
    '{field}: must be a known calling code, with or without its +, such as +86 or 852',
    '{field}: 须为有效的国际区号，可带或不带 +，如 +86 或 852',
  ),
} as const satisfies Record<string, CatalogueEntry>;
