import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { ServiceContext } from '../../context.ts';
import { csrfTokenFor } from '../../operators/sessions.ts';
import { success } from '../envelope.ts';
import { operatorOf, readCookie, requireOperator, SESSION_COOKIE } from './operatorAuth.ts';
import { ADMIN_SECURITY, adminErrors, ok } from './schemas.ts';

/**
 * The session of the console, after a reload or in a new tab: who is signed in and the CSRF token
 * of the cookie session (the login returned it once; the console keeps it only in memory). Safe as
 * a GET: the cookie is SameSite=Strict, so another site's request carries none, and another
 * origin cannot read the answer.
 */
const SessionView = Type.Object({
  username: Type.String(),
  role: Type.String(),
  csrf_token: Type.Union([Type.String(), Type.Null()], {
    description: 'For `x-csrf-token`; null for a Bearer session, which needs none.',
  }),
});

export function sessionCsrfRoutes(ctx: ServiceContext) {
  return async (app: FastifyInstance) => {
    app.get(
      '/session',
      {
        onRequest: requireOperator(ctx, 'viewer'),
        config: { operation: 'admin.session' },
        schema: {
          operationId: 'adminSession',
          summary: 'The operator of this session and its CSRF token',
          tags: ['admin'],
          security: ADMIN_SECURITY,
          response: { ...ok(SessionView), ...adminErrors() },
        },
      },
      async (request) => {
        const operator = operatorOf(request);
        const cookie = readCookie(request.headers.cookie, SESSION_COOKIE);
        return success(request, {
          username: operator.username,
          role: operator.role,
          csrf_token: operator.via === 'cookie' && cookie !== undefined ? csrfTokenFor(cookie) : null,
        });
      },
    );
  };
}
