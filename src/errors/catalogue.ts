/**
 * The one catalogue of error codes. Every non-zero `code` the service answers with is defined here,
 * with its HTTP status and its message in English and Chinese. The envelope code is
 * `status * 100 + detail`, so 42201 is a 422.
 *
 * Messages are templates: `{field}` and other `{name}` placeholders are filled from the error's
 * params. A message names the field and the rule; it never echoes the value that was sent.
 * What a caller should do about each code is in guidance.ts.
 */
export interface CatalogueEntry {
  readonly code: number;
  readonly status: number;
  /** Short identifier used in logs, metrics and the OpenAPI document. */
  readonly name: string;
  readonly en: string;
  readonly zh: string;
}

function entry(code: number, name: string, en: string, zh: string): CatalogueEntry {
  return { code, status: Math.floor(code / 100), name, en, zh };
}

export const ERRORS = {
  // 400: the body could not be read as a JSON object.
  bodyNotJson: entry(40001, 'body_not_json', 'body: is not valid JSON', 'body: 不是合法的 JSON'),
  bodyNotObject: entry(40002, 'body_not_object', 'body: must be a JSON object', 'body: 必须是 JSON 对象'),
  bodyDuplicateKey: entry(
    40003,
    'body_duplicate_key',
    '{field}: appears more than once in the body',
    '{field}: 在请求体中重复出现',
  ),
  bodyBadEncoding: entry(
    40004,
    'body_bad_encoding',
    'body: is not valid UTF-8',
    'body: 不是合法的 UTF-8 编码',
  ),
  bodyForbiddenKey: entry(
    40005,
    'body_forbidden_key',
    '{field}: this key name is not allowed',
    '{field}: 不允许使用该键名',
  ),
  bodyTooDeep: entry(
    40006,
    'body_too_deep',
    'body: is nested deeper than {max} levels',
    'body: 嵌套层级超过 {max} 层',
  ),
  bodyEmpty: entry(
    40007,
    'body_empty',
    'body: is empty; a JSON object is required',
    'body: 为空，需要 JSON 对象',
  ),
  headerInvalid: entry(40008, 'header_invalid', '{field}: {reason}', '{field}: {reason_zh}'),
  requestMalformed: entry(40009, 'request_malformed', 'request: is malformed', 'request: 请求格式错误'),
  // 408, 431: refused by the HTTP parser before any route (a slow client, oversized headers).
  requestTimeout: entry(
    40801,
    'request_timeout',
    'request: did not arrive in time',
    'request: 未能在时限内送达',
  ),
  headersTooLarge: entry(
    43101,
    'headers_too_large',
    'headers: are larger than the server accepts',
    'headers: 超过服务器允许的大小',
  ),

  // 401: who is calling could not be established.
  tokenMissing: entry(
    40101,
    'token_missing',
    'Authorization: header is required',
    'Authorization: 缺少认证令牌',
  ),
  tokenInvalid: entry(
    40102,
    'token_invalid',
    'Authorization: token is unknown or revoked',
    'Authorization: 令牌无效或已被吊销',
  ),
  tokenExpired: entry(
    40103,
    'token_expired',
    'Authorization: token has expired',
    'Authorization: 令牌已过期',
  ),
  credentialsInvalid: entry(
    40104,
    'credentials_invalid',
    'app_secret: app_id and app_secret do not match',
    'app_secret: app_id 与 app_secret 不匹配',
  ),
  timestampSkew: entry(
    40105,
    'timestamp_skew',
    'timestamp: is {skew} seconds away from server time; the allowed skew is {allowed} seconds{hint}',
    'timestamp: 与服务器时间相差 {skew} 秒，允许的偏差为 {allowed} 秒{hint_zh}',
  ),
  operatorAuthRequired: entry(
    40110,
    'operator_auth_required',
    'Authorization: an operator token (Bearer) or session cookie is required',
    'Authorization: 需要操作员令牌（Bearer）或会话 Cookie',
  ),
  operatorSessionInvalid: entry(
    40111,
    'operator_session_invalid',
    'Authorization: the session is unknown, expired or revoked; log in again',
    'Authorization: 会话无效、已过期或已注销，请重新登录',
  ),
  loginFailed: entry(
    40112,
    'login_failed',
    'password: the user name or password is wrong',
    'password: 用户名或密码错误',
  ),
  mfaCodeRequired: entry(
    40170,
    'mfa_code_required',
    'otp: this operator signs in with a one-time code from the authenticator app (or a recovery code)',
    'otp: 该操作员登录需要身份验证器应用的一次性验证码（或恢复码）',
  ),
  mfaCodeInvalid: entry(
    40171,
    'mfa_code_invalid',
    'otp: the code is wrong, expired or already used',
    'otp: 验证码错误、已过期或已被使用',
  ),

  // 403: the caller is known but may not do this.
  appMismatch: entry(
    40301,
    'app_mismatch',
    'app_id: does not match the app of the token',
    'app_id: 与令牌所属应用不一致',
  ),
  appDisabled: entry(40302, 'app_disabled', 'app_id: app is disabled', 'app_id: 应用已停用'),
  forbidden: entry(40303, 'forbidden', 'role: {reason}', 'role: {reason_zh}'),
  documentNotOpened: entry(
    40320,
    'document_not_opened',
    'busi_water_no: open the application for review, or reveal {field}, in this session before viewing its document',
    'busi_water_no: 请先在本次会话中打开审核或查看 {field} 明文，再查看其文件',
  ),
  csrfTokenInvalid: entry(
    40304,
    'csrf_token_invalid',
    'x-csrf-token: header is missing or does not match the session',
    'x-csrf-token: 缺少该请求头或与会话不匹配',
  ),
  selfChangeForbidden: entry(
    40305,
    'self_change_forbidden',
    'username: you cannot disable or demote your own account',
    'username: 不能停用或降级自己的账号',
  ),
  mfaEnrolmentRequired: entry(
    40370,
    'mfa_enrolment_required',
    'otp: a second factor is required; enrol one before anything else',
    'otp: 必须启用第二重验证，请先完成绑定',
  ),

  // 404
  applicationNotFound: entry(
    40401,
    'application_not_found',
    'busi_water_no: no such application',
    'busi_water_no: 申请不存在',
  ),
  routeNotFound: entry(40402, 'route_not_found', 'path: no such route', 'path: 接口不存在'),
  operatorNotFound: entry(
    40403,
    'operator_not_found',
    'username: no such operator',
    'username: 操作员不存在',
  ),
  appNotFound: entry(40404, 'app_not_found', 'app_id: no such app', 'app_id: 应用不存在'),
  webhookEndpointNotFound: entry(
    40410,
    'webhook_endpoint_not_found',
    'id: no such webhook endpoint',
    'id: Webhook 端点不存在',
  ),
  eventNotFound: entry(40411, 'event_not_found', 'event_id: no such event', 'event_id: 事件不存在'),
  documentNotKept: entry(
    40420,
    'document_not_kept',
    'field: {field} has no kept document (it is {state})',
    'field: {field} 没有留存的文件（当前状态：{state}）',
  ),

  // 409: the request conflicts with what is stored.
  duplicateApplication: entry(
    40901,
    'duplicate_application',
    'cert_id: an active application for this document already exists',
    'cert_id: 该证件已有进行中的申请',
  ),
  cardNoTaken: entry(
    40902,
    'card_no_taken',
    'card_no: this card number is already taken',
    'card_no: 该卡号已被占用',
  ),
  idempotencyKeyReused: entry(
    40903,
    'idempotency_key_reused',
    'Idempotency-Key: was used before with a different body',
    'Idempotency-Key: 已用于不同的请求体',
  ),
  idempotencyInProgress: entry(
    40904,
    'idempotency_in_progress',
    'Idempotency-Key: a request with this key is still in progress',
    'Idempotency-Key: 使用该键的请求仍在处理中',
  ),
  transitionNotAllowed: entry(
    40905,
    'transition_not_allowed',
    'status: cannot move from {from} to {to}',
    'status: 不能从 {from} 变更为 {to}',
  ),
  concurrentChange: entry(
    40906,
    'concurrent_change',
    'busi_water_no: the application was changed by someone else; read it again',
    'busi_water_no: 申请已被他人修改，请重新读取',
  ),
  mfaAlreadyEnrolled: entry(
    40970,
    'mfa_already_enrolled',
    'otp: this operator already has a second factor; an admin resets it first',
    'otp: 该操作员已绑定第二重验证，需先由管理员重置',
  ),
  mfaNotPending: entry(
    40971,
    'mfa_not_pending',
    'otp: no enrolment is waiting for confirmation; start one first',
    'otp: 没有待确认的绑定，请先开始绑定',
  ),
  claimNotPossible: entry(
    40972,
    'claim_not_possible',
    'busi_water_no: only an application in review can be claimed; it is {status}',
    'busi_water_no: 仅审核中的申请可以认领，当前状态为 {status}',
  ),
  applicationClaimed: entry(
    40973,
    'application_claimed',
    'busi_water_no: {holder} holds this application for review',
    'busi_water_no: 该申请已由 {holder} 认领审核',
  ),
  claimNotHeld: entry(
    40974,
    'claim_not_held',
    'busi_water_no: you hold no claim on this application; claim it first',
    'busi_water_no: 您未认领该申请，请先认领',
  ),
  externalIdTaken: entry(
    40921,
    'external_id_taken',
    'external_id: is already the reference of an active application of this app',
    'external_id: 已被本应用的另一笔有效申请使用',
  ),
  operatorExists: entry(
    40907,
    'operator_exists',
    'username: an operator with this name already exists',
    'username: 该操作员已存在',
  ),
  webhookEndpointDisabled: entry(
    40930,
    'webhook_endpoint_disabled',
    'id: the webhook endpoint is disabled; enable it first',
    'id: Webhook 端点已停用，请先启用',
  ),

  // 413, 415
  bodyTooLarge: entry(
    41301,
    'body_too_large',
    'body: is larger than {max} bytes',
    'body: 超过 {max} 字节的上限',
  ),
  unsupportedContentType: entry(
    41501,
    'unsupported_content_type',
    'Content-Type: must be application/json',
    'Content-Type: 必须为 application/json',
  ),
  xmlContentTypeRequired: entry(
    41502,
    'xml_content_type_required',
    'Content-Type: must be application/xml or text/xml (the list file as published)',
    'Content-Type: 必须为 application/xml 或 text/xml（按原样上传名单文件）',
  ),

  // 422: field validation. One entry per rule; the field is named in the message.
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
  payPwdWeak: entry(
    42234,
    'pay_pwd_weak',
    '{field}: the payment password is too easy to guess',
    '{field}: 支付密码过于简单',
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
  fieldNotRequested: entry(
    42260,
    'field_not_requested',
    '{field}: was not asked for; the amend takes only {requested}',
    '{field}: 未被要求补充；补充只接受 {requested}',
  ),
  passwordTooShort: entry(
    42250,
    'password_too_short',
    '{field}: must be at least {min} characters',
    '{field}: 长度不能少于 {min} 个字符',
  ),
  passwordCommon: entry(
    42270,
    'password_common',
    '{field}: is on the list of common passwords; choose another',
    '{field}: 属于常见密码，请另选一个',
  ),
  passwordReused: entry(
    42271,
    'password_reused',
    '{field}: must not be one of the last {count} passwords of this operator',
    '{field}: 不能与该操作员最近 {count} 次使用的密码相同',
  ),

  textCarriesNumber: entry(
    42251,
    'text_carries_number',
    '{field}: must not contain an identity or card number',
    '{field}: 不能包含证件号或卡号',
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
  nameEnPinyinForm: entry(42291, 'name_en_pinyin_form', '{field}: {rule}', '{field}: {rule_zh}'),
  callingCodeUnknown: entry(
    42292,
    'calling_code_unknown',
    '{field}: must be a known calling code, with or without its +, such as +86 or 852',
    '{field}: 须为有效的国际区号，可带或不带 +，如 +86 或 852',
  ),
  webhookUrlUnresolvable: entry(
    42280,
    'webhook_url_unresolvable',
    '{field}: the host name does not resolve',
    '{field}: 主机名无法解析',
  ),

  // 429
  rateLimited: entry(
    42901,
    'rate_limited',
    'app_id: rate limit exceeded; retry after {retry_after} seconds',
    'app_id: 超出调用频率限制，请在 {retry_after} 秒后重试',
  ),
  authAttemptsLimited: entry(
    42902,
    'auth_attempts_limited',
    'app_secret: too many failed attempts; retry after {retry_after} seconds',
    'app_secret: 失败次数过多，请在 {retry_after} 秒后重试',
  ),
  loginAttemptsLimited: entry(
    42903,
    'login_attempts_limited',
    'password: too many failed attempts; retry after {retry_after} seconds',
    'password: 失败次数过多，请在 {retry_after} 秒后重试',
  ),
  concurrencyLimited: entry(
    42904,
    'concurrency_limited',
    'app_id: {app_id} already has {limit} requests in progress, the most allowed at once; retry after {retry_after} seconds',
    'app_id: {app_id} 已有 {limit} 个请求正在处理，已达同时处理上限，请在 {retry_after} 秒后重试',
  ),
  revealsLimited: entry(
    42970,
    'reveals_limited',
    'purpose: at most {limit} reveals an hour; retry after {retry_after} seconds',
    'purpose: 每小时最多查看 {limit} 次明文，请在 {retry_after} 秒后重试',
  ),

  // 423: the account is locked after too many failed sign-ins (PCI DSS 8.3.4).
  operatorLocked: entry(
    42301,
    'operator_locked',
    'username: locked after too many failed sign-ins; retry after {retry_after} seconds or ask an admin',
    'username: 登录失败次数过多，账号已锁定，请在 {retry_after} 秒后重试或联系管理员',
  ),

  // 5xx: never internals.
  internal: entry(50001, 'internal', 'internal error; the request was not completed', '内部错误，请求未完成'),
  storeUnavailable: entry(
    50301,
    'store_unavailable',
    'service temporarily unavailable; retry later',
    '服务暂不可用，请稍后重试',
  ),
  // Sanctions screening (docs/SCREENING.md): operators only; a caller never meets these.
  screeningHitUnresolved: entry(
    40940,
    'screening_hit_unresolved',
    'status: cannot move to {to} while {count} sanctions screening hit(s) are unresolved; clear them (two operators) or reject',
    'status: 尚有 {count} 条制裁筛查命中未处理，不能变更为 {to}；请由两名操作员排除或拒绝申请',
  ),
  screeningHitState: entry(
    40941,
    'screening_hit_state',
    'hit_id: the hit is {state}; {action} is not possible now',
    'hit_id: 该命中状态为 {state}，当前不能{action}',
  ),
  screeningSameOperator: entry(
    40340,
    'screening_same_operator',
    'hit_id: the operator who cleared a hit cannot also confirm it; a second operator must',
    'hit_id: 排除命中的操作员不能自己确认，须由另一名操作员确认',
  ),
  screeningHitNotFound: entry(
    40440,
    'screening_hit_not_found',
    'hit_id: no such screening hit',
    'hit_id: 筛查命中不存在',
  ),
  screeningListInvalid: entry(
    42293,
    'screening_list_invalid',
    'file: is not a {list} list file: {problem}',
    'file: 不是有效的 {list} 名单文件：{problem}',
  ),
  notReady: entry(50302, 'not_ready', 'instance not ready: {reasons}', '实例未就绪：{reasons}'),
} as const satisfies Record<string, CatalogueEntry>;

export type ErrorName = keyof typeof ERRORS;

export type Params = Readonly<Record<string, string | number>>;

/** Fill a message template. Unknown placeholders are left empty rather than shown raw. */
export function renderMessage(template: string, params: Params | undefined): string {
  return template.replace(/\{([a-z_]+)\}/g, (_, key: string) => {
    const value = params?.[key];
    return value === undefined ? '' : String(value);
  });
}

export type Language = 'en' | 'zh';
