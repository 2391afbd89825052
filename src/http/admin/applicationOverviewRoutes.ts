import type { TypedApp } from '../typedApp.ts';
import { Type } from 'typebox';
import { countApplicationsByStatus, StatusCounts } from '../../applications/views/countApplications.ts';
import { LIMITS } from '../../record/schema.ts';
import type { ServiceContext } from '../../context.ts';
import { refuseIfRestricted } from '../../record/restriction.ts';
import { ApplicationEvent, listApplicationEvents } from '../../webhooks/applicationEvents.ts';
import { hasRole } from '../../access/roles.ts';
import { success } from '../envelope.ts';
import { adminRoute } from './adminRoute.ts';
import { operatorOf } from './operatorAuth.ts';
import { numberOf, ok } from './schemas.ts';
import { SerialParams } from './applicationSchemas.ts';

/**
 * What the console shows around the search: counts per status at a glance, and the events of one
 * application with their webhook deliveries. Every operator reads both; deliveries (endpoint URLs,
 * receivers' errors) only reviewers and admins, as in the webhook routes.
 */

const seconds = (description: string) => Type.String({ pattern: '^[0-9]{1,12}$', description });

const CountsQuery = Type.Object(
  {
    app_id: Type.Optional(Type.String({ minLength: 1, maxLength: LIMITS.appId })),
    created_from: Type.Optional(seconds('Created at or after, Unix seconds.')),
    created_to: Type.Optional(seconds('Created at or before, Unix seconds.')),
  },
  { additionalProperties: false },
);

export function applicationOverviewRoutes(ctx: ServiceContext) {
  return async (app: TypedApp) => {
    app.get(
      '/applications/counts',
      adminRoute(ctx, {
        caller: 'viewer',
        operation: 'admin.application.counts',
        operationId: 'adminCountApplications',
        summary: 'How many applications are in each status',
        errors: ['fieldFormat'],
        schema: { querystring: CountsQuery, response: ok(StatusCounts) },
      }),
      async (request) => {
        const { query } = request;
        return success(
          request,
          await countApplicationsByStatus(ctx, {
            app_id: query.app_id,
            created_from: numberOf(query.created_from),
            created_to: numberOf(query.created_to),
          }),
        );
      },
    );

    app.get(
      '/applications/:busi_water_no/events',
      adminRoute(ctx, {
        caller: 'viewer',
        operation: 'admin.application.events',
        operationId: 'adminListApplicationEvents',
        summary: 'The events of an application, with their deliveries',
        errors: ['applicationNotFound'],
        schema: { params: SerialParams, response: ok(Type.Array(ApplicationEvent)) },
      }),
      async (request) => {
        const { busi_water_no } = request.params;
        // Restricted by a deletion request: as if it did not exist, but to a compliance operator.
        await refuseIfRestricted(ctx.store.db, busi_water_no, operatorOf(request));
        const withDeliveries = hasRole(operatorOf(request).role, 'reviewer');
        return success(request, await listApplicationEvents(ctx, busi_water_no, { withDeliveries }));
      },
    );
  };
}
