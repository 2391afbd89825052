import type { TypedApp } from '../typedApp.ts';
import { Type } from 'typebox';
import { IssuedToken, issueToken } from '../../partners/credentials.ts';
import type { ServiceContext } from '../../context.ts';
import { bodyOf, checkTimestamp } from '../partnerAuth.ts';
import { success } from '../envelope.ts';
import { PATHS } from '../paths.ts';
import { AppId, PARTNER_ERRORS, errorResponses, SuccessEnvelope, Timestamp } from '../schemas.ts';

const TokenRequest = Type.Object(
  {
    app_id: AppId,
    app_secret: Type.String({
      minLength: 1,
      maxLength: 256,
      description: 'The secret shown when the app was created.',
    }),
    timestamp: Timestamp,
  },
  { additionalProperties: false },
);

export function tokenRoutes(ctx: ServiceContext) {
  return async (app: TypedApp) => {
    // The timestamp is checked before the secret, so a replayed exchange learns nothing.
    app.addHook('preValidation', async (request) => {
      checkTimestamp(bodyOf(request)['timestamp'], ctx.now(), ctx.config.timestampSkewSeconds);
    });

    app.post(
      PATHS.token,
      {
        config: { operation: 'auth.token' },
        schema: {
          operationId: 'exchangeToken',
          summary: 'Exchange the app secret for an access token',
          description:
            'The only call without a token. Answers an opaque access token valid `expires_in` seconds (2 hours by default); exchange again before it expires (a partner may hold several). Failed secrets are counted per app and per client address: too many in a minute are refused with 429 for a while.',
          tags: ['auth'],
          security: [],
          body: TokenRequest,
          response: {
            200: SuccessEnvelope(IssuedToken),
            ...errorResponses([
              ...PARTNER_ERRORS.filter(
                (e) => !e.startsWith('token') && e !== 'appMismatch' && e !== 'rateLimited',
              ),
              'credentialsInvalid',
              'authAttemptsLimited',
              'fieldEmpty',
              'fieldTooLong',
            ]),
          },
        },
      },
      async (request) => {
        const { body } = request;
        const token = await request.server.limits.limitSecretAttempts(request, body.app_id, () =>
          issueToken(ctx, {
            appId: body.app_id,
            appSecret: body.app_secret,
            ttlSeconds: ctx.config.tokenTtlSeconds,
            now: ctx.now(),
          }),
        );
        return success(request, token);
      },
    );
  };
}
