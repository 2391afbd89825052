import { Type } from 'typebox';
import { ROLES } from '../../access/roles.ts';
import { USERNAME_PATTERN } from '../../operators/operators.ts';
import { MAX_PASSWORD_LENGTH } from '../../operators/passwordPolicy.ts';

/** Operator accounts: their administration, their views, their second factor. */

export const UsernameParams = Type.Object(
  { username: Type.String({ minLength: 1, maxLength: 64 }) },
  { additionalProperties: false },
);
const Role = Type.Enum([...ROLES], {
  description: 'viewer reads; reviewer also moves applications and reveals fields; admin also manages.',
});

export const OperatorBody = Type.Object(
  {
    username: Type.String({ minLength: 1, maxLength: 64, pattern: USERNAME_PATTERN }),
    role: Role,
    password: Type.String({ minLength: 1, maxLength: MAX_PASSWORD_LENGTH }),
  },
  { additionalProperties: false },
);
export const RoleBody = Type.Object({ role: Role }, { additionalProperties: false });
export const PasswordBody = Type.Object(
  { password: Type.String({ minLength: 1, maxLength: MAX_PASSWORD_LENGTH }) },
  { additionalProperties: false },
);
export const OperatorView = Type.Object({
  username: Type.String(),
  role: Type.String(),
  disabled: Type.Boolean(),
  compliance: Type.Boolean({
    description: 'A compliance duty: sees the applications a deletion request restricted (docs/PRIVACY.md).',
  }),
  created_at: Type.Integer(),
  updated_at: Type.Integer(),
});

export const SecondFactorState = Type.Union(
  [Type.Literal('none'), Type.Literal('pending'), Type.Literal('active')],
  {
    description:
      '`none`; `pending`: enrolment started, not yet confirmed with a code; `active`: asked at every sign-in.',
  },
);

export const OperatorListItem = Type.Object({
  ...OperatorView.properties,
  second_factor: SecondFactorState,
});
export const OtpBody = Type.Object(
  { otp: Type.String({ pattern: '^[0-9]{6}$', description: 'A current code of the new secret.' }) },
  { additionalProperties: false },
);

export const EnrolmentView = Type.Object({
  secret: Type.String({ description: 'The base32 secret, to type into an authenticator by hand.' }),
  otpauth_uri: Type.String({
    description: 'The `otpauth://totp/...` URI (RFC 6238, SHA-1, 6 digits, 30 s).',
  }),
  qr_svg: Type.String({ description: 'The URI as a QR code: an SVG document, drawn by the service.' }),
});

export const SecondFactorView = Type.Object({
  state: SecondFactorState,
  enrolment: Type.Optional(EnrolmentView),
});

export const RecoveryCodes = Type.Object({
  recovery_codes: Type.Array(Type.String(), {
    description: 'Ten one-time codes for when the authenticator is lost; shown only this once.',
  }),
});
