import type { TypedApp } from '../typedApp.ts';
import { Type } from 'typebox';
import type { ServiceContext } from '../../context.ts';
import { confirmEnrolment, resetSecondFactor, secondFactorOf, startEnrolment } from '../../operators/totp.ts';
import { success } from '../envelope.ts';
import { changedBy, operatorOf, requireOperator } from './operatorAuth.ts';
import { ADMIN_SECURITY, adminBodyErrors, adminErrors, EmptyBody, ok } from './schemas.ts';
import {
  EnrolmentView,
  OtpBody,
  RecoveryCodes,
  SecondFactorView,
  UsernameParams,
} from './operatorSchemas.ts';

/**
 * The second factor (TOTP): an operator enrols their own (also in a session limited to enrolment),
 * an admin resets someone's. Each change is one audit row.
 */
export function mfaRoutes(ctx: ServiceContext) {
  return async (app: TypedApp) => {
    const self = requireOperator(ctx, 'viewer', { duringEnrolment: true });

    app.get(
      '/mfa',
      {
        onRequest: self,
        config: { operation: 'admin.mfa.state' },
        schema: {
          operationId: 'adminMfaState',
          summary: "The operator's own second factor: none, pending (with its secret again) or active",
          description:
            'A pending enrolment answers the same secret as when it was started, so that a reload or a detour does not lose it; it stays stored encrypted until confirmed or replaced by `POST /admin/v1/mfa/enrol`. Changes nothing and writes no audit row.',
          tags: ['admin'],
          security: ADMIN_SECURITY,
          response: { ...ok(SecondFactorView), ...adminErrors() },
        },
      },
      async (request) => success(request, await secondFactorOf(ctx, operatorOf(request).username)),
    );

    app.post(
      '/mfa/enrol',
      {
        onRequest: self,
        config: { operation: 'admin.mfa.enrol' },
        schema: {
          operationId: 'adminMfaEnrol',
          summary: 'Start enrolling a TOTP second factor',
          description:
            'Answers a new secret as an `otpauth://` URI and its QR code (SVG). It becomes the second factor once `POST /admin/v1/mfa/confirm` sends a current code of it. Refused while a confirmed factor exists (an admin resets it).',
          tags: ['admin'],
          security: ADMIN_SECURITY,
          body: EmptyBody,
          response: { ...ok(EnrolmentView), ...adminBodyErrors('mfaAlreadyEnrolled') },
        },
      },
      async (request) =>
        success(request, await startEnrolment(ctx, operatorOf(request).username, changedBy(request))),
    );

    app.post(
      '/mfa/confirm',
      {
        onRequest: self,
        config: { operation: 'admin.mfa.confirm' },
        schema: {
          operationId: 'adminMfaConfirm',
          summary: 'Confirm the TOTP second factor with a current code',
          description:
            'Makes the pending secret the second factor and answers ten one-time recovery codes, shown only this once. A session limited to enrolment becomes a full one.',
          tags: ['admin'],
          security: ADMIN_SECURITY,
          body: OtpBody,
          response: {
            ...ok(RecoveryCodes),
            ...adminBodyErrors('mfaNotPending', 'mfaCodeInvalid', 'fieldFormat'),
          },
        },
      },
      async (request) => {
        const operator = operatorOf(request);
        const { otp } = request.body;
        return success(
          request,
          await confirmEnrolment(ctx, operator.username, otp, changedBy(request), operator.sessionHash),
        );
      },
    );

    app.post(
      '/operators/:username/mfa/reset',
      {
        onRequest: requireOperator(ctx, 'admin'),
        config: { operation: 'admin.operator.mfa_reset' },
        schema: {
          operationId: 'adminResetOperatorMfa',
          summary: "Remove an operator's second factor (a lost authenticator); ends its sessions",
          tags: ['admin'],
          security: ADMIN_SECURITY,
          params: UsernameParams,
          body: EmptyBody,
          response: {
            ...ok(Type.Object({ reset: Type.Literal(true) })),
            ...adminBodyErrors('operatorNotFound'),
          },
        },
      },
      async (request) => {
        const { username } = request.params;
        await resetSecondFactor(ctx, username, changedBy(request));
        return success(request, { reset: true as const });
      },
    );
  };
}
