import type { TypedApp } from '../typedApp.ts';
import { Type } from 'typebox';
import { RotatedSecret, rotateSecret } from '../../partners/manageCredentials.ts';
import type { ServiceContext } from '../../context.ts';
import { success } from '../envelope.ts';
import { adminRoute } from './adminRoute.ts';
import { changedBy } from './operatorAuth.ts';
import { ok } from './schemas.ts';
import { AppIdParams } from './appSchemas.ts';

/** An app's secret rotated from the console, as `cardapply apps rotate-secret` does it. */

const DEFAULT_OVERLAP_SECONDS = 86_400;

const RotateBody = Type.Object(
  {
    overlap_seconds: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: 30 * 86_400,
        description: `How long the previous secrets keep working; ${DEFAULT_OVERLAP_SECONDS} by default.`,
      }),
    ),
  },
  { additionalProperties: false },
);

export function appSecretRoutes(ctx: ServiceContext) {
  return async (app: TypedApp) => {
    app.post(
      '/apps/:app_id/rotate-secret',
      adminRoute(ctx, {
        caller: 'admin',
        operation: 'admin.app.rotate_secret',
        operationId: 'adminRotateAppSecret',
        summary: 'Give an app a new secret (shown once); the previous ones work until the overlap ends',
        errors: ['appNotFound', 'fieldFormat'],
        schema: { params: AppIdParams, body: RotateBody, response: ok(RotatedSecret) },
      }),
      async (request) => {
        const { app_id } = request.params;
        const { overlap_seconds } = request.body;
        return success(
          request,
          await rotateSecret(ctx, app_id, overlap_seconds ?? DEFAULT_OVERLAP_SECONDS, changedBy(request)),
        );
      },
    );
  };
}
