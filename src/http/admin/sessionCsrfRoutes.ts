import type { TypedApp } from '../typedApp.ts';
import { Type } from 'typebox';
import type { ServiceContext } from '../../context.ts';
import { ServiceError } from '../../errors/serviceError.ts';
import { authenticateOperator, csrfTokenFor, type OperatorIdentity } from '../../operators/sessions.ts';
import { success } from '../envelope.ts';
import { credentialOf, isBackground } from './operatorAuth.ts';
import { adminRoute } from './adminRoute.ts';
import { ok } from './schemas.ts';

/**
 * The session of the console, after a reload or in a new tab: whether anyone is signed in, who,
 * and the CSRF token of the cookie session (the login returned it once; the console keeps it only
 * in memory). Signed out is an answer, not an error (200 with `signed_in: false`), so that the
 * sign-in page does not log a failed request in the browser's console. Safe as a GET: the cookie
 * is SameSite=Strict, so another site's request carries none, and another origin cannot read the
 * answer.
 */
const SessionView = Type.Object({
  signed_in: Type.Boolean(),
  username: Type.Optional(Type.String()),
  role: Type.Optional(Type.String()),
  csrf_token: Type.Optional(
    Type.Union([Type.String(), Type.Null()], {
      description: 'For `x-csrf-token`; null for a Bearer session, which needs none.',
    }),
  ),
  idle_timeout: Type.Optional(
    Type.Integer({ description: 'Seconds without a request that end the session.' }),
  ),
  mfa_enrolment_required: Type.Optional(
    Type.Boolean({ description: 'The session may only enrol a second factor until it is confirmed.' }),
  ),
});

export function sessionCsrfRoutes(ctx: ServiceContext) {
  return async (app: TypedApp) => {
    app.get(
      '/session',
      adminRoute(ctx, {
        caller: 'anyone',
        operation: 'admin.session',
        operationId: 'adminSession',
        summary: 'Whether anyone is signed in, who, and the CSRF token of the cookie session',
        errors: ['storeUnavailable'],
        schema: { response: ok(SessionView) },
      }),
      async (request) => {
        const credential = credentialOf(request);
        let operator: OperatorIdentity | undefined;
        if (credential !== undefined) {
          try {
            operator = await authenticateOperator(ctx, credential.token, {
              background: isBackground(request),
            });
          } catch (error) {
            if (!(error instanceof ServiceError)) throw error;
          }
        }
        if (credential === undefined || operator === undefined) return success(request, { signed_in: false });
        return success(request, {
          signed_in: true,
          username: operator.username,
          role: operator.role,
          csrf_token: credential.via === 'cookie' ? csrfTokenFor(credential.token) : null,
          idle_timeout: ctx.config.operators.sessionIdleSeconds,
          mfa_enrolment_required: operator.scope === 'enrol',
        });
      },
    );
  };
}
