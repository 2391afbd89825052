import type { TypedApp } from '../typedApp.ts';
import { Type } from 'typebox';
import type { ServiceContext } from '../../context.ts';
import { login, logout } from '../../operators/sessions.ts';
import { success } from '../envelope.ts';
import { adminRoute } from './adminRoute.ts';
import { adminSource, clearedSessionCookie, operatorOf, sessionCookie } from './operatorAuth.ts';
import { EmptyBody, ok } from './schemas.ts';
import { LoginBody, LoginResponse, MeResponse } from './sessionSchemas.ts';

/** Log in, log out, and who am I. */
export function sessionRoutes(ctx: ServiceContext) {
  return async (app: TypedApp) => {
    app.post(
      '/login',
      adminRoute(ctx, {
        caller: 'anyone',
        operation: 'admin.login',
        operationId: 'adminLogin',
        summary: 'Log in as an operator',
        description:
          'Exchanges user name, password and (once enrolled, or always where a second factor is required) a TOTP code or a recovery code for a session token. The session ends after `idle_timeout` seconds without a request and `expires_in` seconds after sign-in. Ten failures in a row lock the account for 30 minutes (423). With `cookie: true` the session is also set as an HttpOnly, SameSite=Strict cookie for the console; cookie-authenticated requests that change something must send `csrf_token` as `x-csrf-token`. Every attempt is audited.',
        errors: [
          'loginFailed',
          'loginAttemptsLimited',
          'operatorLocked',
          'mfaCodeRequired',
          'mfaCodeInvalid',
          'fieldFormat',
          'fieldRequired',
          'fieldType',
          'fieldUnknown',
          'fieldEmpty',
          'fieldTooLong',
          'storeUnavailable',
        ],
        schema: { body: LoginBody, response: ok(LoginResponse) },
      }),
      async (request, reply) => {
        const { body } = request;
        const result = await request.server.limits.limitLoginAttempts(request, body.username, () =>
          login(ctx, {
            username: body.username,
            password: body.password,
            otp: body.otp,
            recovery_code: body.recovery_code,
            source: adminSource(request),
          }),
        );
        if (body.cookie === true) {
          reply.header('set-cookie', sessionCookie(request, result.token, result.expires_in));
        }
        return success(request, result);
      },
    );

    app.post(
      '/logout',
      adminRoute(ctx, {
        caller: 'viewer',
        duringEnrolment: true,
        operation: 'admin.logout',
        operationId: 'adminLogout',
        summary: 'End the session',
        schema: { body: EmptyBody, response: ok(Type.Object({ logged_out: Type.Literal(true) })) },
      }),
      async (request, reply) => {
        await logout(ctx, operatorOf(request), adminSource(request));
        reply.header('set-cookie', clearedSessionCookie(request));
        return success(request, { logged_out: true as const });
      },
    );

    app.get(
      '/me',
      adminRoute(ctx, {
        caller: 'viewer',
        duringEnrolment: true,
        operation: 'admin.me',
        operationId: 'adminMe',
        summary: 'The operator of this session',
        schema: { response: ok(MeResponse) },
      }),
      async (request) => {
        const operator = operatorOf(request);
        return success(request, { username: operator.username, role: operator.role, via: operator.via });
      },
    );
  };
}
