import { Type } from 'typebox';
import { MAX_PASSWORD_LENGTH } from '../../operators/passwordPolicy.ts';

/** An operator's sign-in: the login and its answer, and who the session is. */

export const LoginBody = Type.Object(
  {
    username: Type.String({ minLength: 1, maxLength: 64 }),
    password: Type.String({ minLength: 1, maxLength: MAX_PASSWORD_LENGTH }),
    otp: Type.Optional(
      Type.String({
        pattern: '^[0-9]{6}$',
        description: 'The current code of the authenticator app, once a second factor is enrolled.',
      }),
    ),
    recovery_code: Type.Optional(
      Type.String({
        minLength: 16,
        maxLength: 32,
        description: 'One of the recovery codes, instead of `otp`; each works once.',
      }),
    ),
    cookie: Type.Optional(
      Type.Boolean({ description: 'Also set the session as an HttpOnly cookie (for the web console).' }),
    ),
  },
  { additionalProperties: false },
);
export const LoginResponse = Type.Object({
  token: Type.String({ description: 'Opaque session token for `Authorization: Bearer`.' }),
  token_type: Type.Literal('Bearer'),
  expires_in: Type.Integer({ description: 'Longest lifetime in seconds, however busy the session is.' }),
  idle_timeout: Type.Integer({ description: 'The session ends after this many seconds without a request.' }),
  csrf_token: Type.String({
    description: 'Send as `x-csrf-token` with every cookie-authenticated request that changes something.',
  }),
  mfa_enrolment_required: Type.Boolean({
    description:
      'True when a second factor is required and the operator has none yet: the session may only enrol one (`POST /admin/v1/mfa/enrol`, then `/mfa/confirm`).',
  }),
  operator: Type.Object({ username: Type.String(), role: Type.String() }),
});

export const MeResponse = Type.Object({
  username: Type.String(),
  role: Type.String(),
  via: Type.String({ description: '`bearer` or `cookie`.' }),
});
