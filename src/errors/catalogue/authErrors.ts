import { entry, type CatalogueEntry } from './entry.ts';

/**
 * Who is calling: a partner's token and secret, an operator's session, password and second factor,
 * and the limits on guessing them.
 */
export const AUTH_ERRORS = {
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
  // Confirming an enrolment: the session stands, only the code typed for the new secret is wrong.
  mfaEnrolmentCodeWrong: entry(
    40172,
    'mfa_enrolment_code_wrong',
    'otp: the code does not match the secret being enrolled (wrong, of another time, or of another account in the app); the session stays signed in',
    'otp: 验证码与正在绑定的密钥不符（输入有误、不是当前时间的验证码，或是应用中另一个账号的验证码）；会话仍然有效',
  ),
  // 403: the session is known but may not go on this way.
  csrfTokenInvalid: entry(
    40304,
    'csrf_token_invalid',
    'x-csrf-token: header is missing or does not match the session',
    'x-csrf-token: 缺少该请求头或与会话不匹配',
  ),
  mfaEnrolmentRequired: entry(
    40370,
    'mfa_enrolment_required',
    'otp: a second factor is required; enrol one before anything else',
    'otp: 必须启用第二重验证，请先完成绑定',
  ),
  // 429
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
  // 423: the account is locked after too many failed sign-ins (PCI DSS 8.3.4).
  operatorLocked: entry(
    42301,
    'operator_locked',
    'username: locked after too many failed sign-ins; retry after {retry_after} seconds or ask an admin',
    'username: 登录失败次数过多，账号已锁定，请在 {retry_after} 秒后重试或联系管理员',
  ),
} as const satisfies Record<string, CatalogueEntry>;
