import type { TypedApp } from '../typedApp.ts';
import { Type } from 'typebox';
import type { ServiceContext } from '../../context.ts';
import { confirmEnrolment, resetSecondFactor, secondFactorOf, startEnrolment } from '../../operators/totp.ts';
import { success } from '../envelope.ts';
import { adminRoute } from './adminRoute.ts';
import { changedBy, operatorOf } from './operatorAuth.ts';
import { EmptyBody, ok } from './schemas.ts';
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
    const self = { caller: 'viewer', duringEnrolment: true } as const;

    app.get(
      '/mfa',
      adminRoute(ctx, {
        ...self,
        operation: 'admin.mfa.state',
        operationId: 'adminMfaState',
        summary: "The operator's own second factor: none, pending (with its secret again) or active",
        description:
          'A pending enrolment answers the same secret as when it was started, so that a reload or a detour does not lose it; it stays stored encrypted until confirmed or replaced by `POST /admin/v1/mfa/enrol`. Changes nothing and writes no audit row.',
        schema: { response: ok(SecondFactorView) },
      }),
      async (request) => success(request, await secondFactorOf(ctx, operatorOf(request).username)),
    );

    app.post(
      '/mfa/enrol',
      adminRoute(ctx, {
        ...self,
        operation: 'admin.mfa.enrol',
        operationId: 'adminMfaEnrol',
        summary: 'Start enrolling a TOTP second factor',
        description:
          'Answers a new secret as an `otpauth://` URI and its QR code (SVG). It becomes the second factor once `POST /admin/v1/mfa/confirm` sends a current code of it. Refused while a confirmed factor exists (an admin resets it).',
        errors: ['mfaAlreadyEnrolled'],
        schema: { body: EmptyBody, response: ok(EnrolmentView) },
      }),
      async (request) =>
        success(request, await startEnrolment(ctx, operatorOf(request).username, changedBy(request))),
    );

    app.post(
      '/mfa/confirm',
      adminRoute(ctx, {
        ...self,
        operation: 'admin.mfa.confirm',
        operationId: 'adminMfaConfirm',
        summary: 'Confirm the TOTP second factor with a current code',
        description:
          'Makes the pending secret the second factor and answers ten one-time recovery codes, shown only this once. A session limited to enrolment becomes a full one.',
        errors: ['mfaNotPending', 'mfaEnrolmentCodeWrong', 'fieldFormat'],
        schema: { body: OtpBody, response: ok(RecoveryCodes) },
      }),
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
      adminRoute(ctx, {
        caller: 'admin',
        operation: 'admin.operator.mfa_reset',
        operationId: 'adminResetOperatorMfa',
        summary: "Remove an operator's second factor (a lost authenticator); ends its sessions",
        errors: ['operatorNotFound'],
        schema: {
          params: UsernameParams,
          body: EmptyBody,
          response: ok(Type.Object({ reset: Type.Literal(true) })),
        },
      }),
      async (request) => {
        const { username } = request.params;
        await resetSecondFactor(ctx, username, changedBy(request));
        return success(request, { reset: true as const });
      },
    );
  };
}
