import type { AUTH_ERRORS } from '../catalogue/authErrors.ts';
import type { Guidance } from './guidanceEntry.ts';

/** Who is calling: tokens, secrets, sessions, sign-in and its limits. */
export const AUTH_GUIDANCE: { readonly [K in keyof typeof AUTH_ERRORS]: Guidance } = {
  tokenMissing: {
    cause: 'The request has no `Authorization` header.',
    remedy:
      'Exchange the app secret for a token (`/auth/token`) and send it as `Authorization: Bearer <token>`.',
  },
  tokenInvalid: {
    cause:
      'The token is not one the service issued, or it was revoked (an operator revoked the app’s tokens).',
    remedy: 'Exchange the app secret for a new token; if that fails too, ask the issuer about the app.',
  },
  tokenExpired: {
    cause: 'The token is older than its lifetime (`expires_in` of the exchange, 2 hours by default).',
    remedy:
      'Exchange the secret for a new token, then retry (the client renews before expiry, and once on this).',
  },
  credentialsInvalid: {
    cause:
      'The token exchange named an `app_id` and an `app_secret` that do not belong together (or a rotated-out secret).',
    remedy: 'Check both values; do not retry in a loop: failed secrets are counted, then refused with 429.',
  },
  timestampSkew: {
    cause:
      '`timestamp` is further from the server clock than the allowed skew (300 s by default); `data.server_time` says the server time.',
    remedy: 'Set the clock by NTP and send Unix seconds (not milliseconds), then retry.',
  },
  operatorAuthRequired: {
    cause: 'An admin route was called without an operator token or session cookie.',
    remedy:
      'Log in (`POST /admin/v1/login`) and send the token as `Authorization: Bearer`, or use the console.',
  },
  operatorSessionInvalid: {
    cause:
      'The operator session is unknown, has expired, was revoked at logout, or its operator was disabled.',
    remedy: 'Log in again.',
  },
  loginFailed: {
    cause: 'The user name or the password of an operator login is wrong (which one is not said).',
    remedy: 'Check both; repeated failures are limited (429). An admin can set a new password.',
  },
  mfaCodeRequired: {
    cause: 'The operator has a second factor and signed in without its one-time code.',
    remedy: 'Send the current code of the authenticator app (or an unused recovery code) as `otp`.',
  },
  mfaCodeInvalid: {
    cause: 'The one-time code is wrong, outside its 30-second window, or was used already.',
    remedy: 'Check the device clock and send the code showing now; each code works once.',
  },
  mfaEnrolmentCodeWrong: {
    cause:
      'Confirming an enrolment (`POST /admin/v1/mfa/confirm`), the code is not a current code of the pending secret: mistyped, outside its 30-second window, or from another account in the authenticator app.',
    remedy:
      'Type the code the app shows now for this account, or start over with a new secret; the session and the pending secret are kept.',
  },
  csrfTokenInvalid: {
    cause:
      'A cookie-authenticated request that changes something came without the session’s `x-csrf-token`, or with another one.',
    remedy:
      'Send the `csrf_token` of the login as `x-csrf-token`; the console does this by itself (reload it).',
  },
  mfaEnrolmentRequired: {
    cause: 'The operator has no second factor yet; nothing but enrolling is allowed until it has one.',
    remedy: 'Enrol an authenticator app (the console walks through it), then continue.',
  },
  authAttemptsLimited: {
    cause: 'Too many failed secret exchanges for this app in a short time.',
    remedy: 'Wait `Retry-After` seconds; fix the secret before trying again.',
  },
  loginAttemptsLimited: {
    cause: 'Too many failed operator logins for this user name or address.',
    remedy: 'Wait `Retry-After` seconds; an admin can set a new password.',
  },
  operatorLocked: {
    cause: 'The operator account is locked after too many failed sign-ins.',
    remedy: 'Wait `Retry-After` seconds, or ask an admin to unlock it.',
  },
};
