import { entry, type CatalogueEntry } from './entry.ts';

/**
 * 422, the schema's rules for any field: one entry per rule, the field named in the message, never
 * the value sent; and the rules every URL and free text follows.
 */
export const FIELD_ERRORS = {
  fieldRequired: entry(42201, 'field_required', '{field}: is required', '{field}: 为必填项'),
  fieldType: entry(42202, 'field_type', '{field}: must be {expected}', '{field}: 类型必须为{expected_zh}'),
  fieldTooLong: entry(
    42203,
    'field_too_long',
    '{field}: must be at most {max} characters',
    '{field}: 长度不能超过 {max} 个字符',
  ),
  fieldEmpty: entry(42204, 'field_empty', '{field}: must not be empty', '{field}: 不能为空'),
  fieldFormat: entry(42205, 'field_format', '{field}: {rule}', '{field}: {rule_zh}'),
  fieldNotAllowed: entry(
    42206,
    'field_not_allowed',
    '{field}: must be one of {allowed}',
    '{field}: 取值必须为 {allowed} 之一',
  ),
  fieldUnknown: entry(42207, 'field_unknown', '{field}: is not a known field', '{field}: 不是可识别的字段'),
  fieldTooManyItems: entry(
    42208,
    'field_too_many_items',
    '{field}: must have at most {max} items',
    '{field}: 最多 {max} 项',
  ),
  fieldDuplicateItems: entry(
    42209,
    'field_duplicate_items',
    '{field}: must not repeat a code',
    '{field}: 不能包含重复的代码',
  ),
  urlNotHttps: entry(
    42231,
    'url_not_https',
    '{field}: must be an absolute https URL',
    '{field}: 必须是完整的 https 地址',
  ),
  urlCredentials: entry(
    42232,
    'url_credentials',
    '{field}: must not carry a user name or password',
    '{field}: 不能包含用户名或密码',
  ),
  urlPrivateHost: entry(
    42233,
    'url_private_host',
    '{field}: must not point at a private, loopback or link-local address',
    '{field}: 不能指向内网、回环或链路本地地址',
  ),
  codeUnknown: entry(
    42236,
    'code_unknown',
    '{field}: {value} is not a code of the {table} table',
    '{field}: {value} 不是 {table} 代码表中的代码',
  ),
  otherTextRequired: entry(
    42237,
    'other_text_required',
    '{field}: is required when {source} includes the "other" code',
    '{field}: 当 {source} 选择“其他”时为必填项',
  ),
  fieldNotRequested: entry(
    42260,
    'field_not_requested',
    '{field}: was not asked for; the amend takes only {requested}',
    '{field}: 未被要求补充；补充只接受 {requested}',
  ),
  fieldNotResendable: entry(
    42261,
    'field_not_resendable',
    '{field}: {name} is not a field a partner can send again',
    '{field}: {name} 不是合作方可以重新提交的字段',
  ),
  textCarriesNumber: entry(
    42251,
    'text_carries_number',
    '{field}: must not contain an identity or card number',
    '{field}: 不能包含证件号或卡号',
  ),
} as const satisfies Record<string, CatalogueEntry>;
