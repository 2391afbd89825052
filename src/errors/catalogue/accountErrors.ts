import { entry, type CatalogueEntry } from './entry.ts';

/**
 * The accounts: apps (the partners' registrations) and operators, what an operator's role allows, and their
 * administration (names, second factors, passwords).
 */
export const ACCOUNT_ERRORS = {
  // 403: the partner or operator is known but may not do this.
  appMismatch: entry(
    40301,
    'app_mismatch',
    'app_id: does not match the app of the token',
    'app_id: 与令牌所属应用不一致',
  ),
  appDisabled: entry(40302, 'app_disabled', 'app_id: app is disabled', 'app_id: 应用已停用'),
  forbidden: entry(40303, 'forbidden', 'role: {reason}', 'role: {reason_zh}'),
  selfChangeForbidden: entry(
    40305,
    'self_change_forbidden',
    'username: you cannot disable or demote your own account',
    'username: 不能停用或降级自己的账号',
  ),
  // 404
  operatorNotFound: entry(
    40403,
    'operator_not_found',
    'username: no such operator',
    'username: 操作员不存在',
  ),
  appNotFound: entry(40404, 'app_not_found', 'app_id: no such app', 'app_id: 应用不存在'),
  // 409: the request conflicts with what is stored.
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
  operatorExists: entry(
    40907,
    'operator_exists',
    'username: an operator with this name already exists',
    'username: 该操作员已存在',
  ),
  // 422: an operator's new password.
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
} as const satisfies Record<string, CatalogueEntry>;
