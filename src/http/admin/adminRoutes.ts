import type { TypedApp } from '../typedApp.ts';
import type { ServiceContext } from '../../context.ts';
import { applicationAdminRoutes } from './applicationAdminRoutes.ts';
import { applicationOverviewRoutes } from './applicationOverviewRoutes.ts';
import { appSecretRoutes } from './appSecretRoutes.ts';
import { claimRoutes } from './claimRoutes.ts';
import { documentRoutes } from './documentRoutes.ts';
import { workloadRoutes } from './workloadRoutes.ts';
import { screeningRoutes } from './screeningRoutes.ts';
import { manageRoutes } from './manageRoutes.ts';
import { mfaRoutes } from './mfaRoutes.ts';
import { sessionCsrfRoutes } from './sessionCsrfRoutes.ts';
import { sessionRoutes } from './sessionRoutes.ts';
import { subjectRequestAdminRoutes } from './subjectRequestAdminRoutes.ts';

/** Where the admin API lives. */
export const ADMIN_PREFIX = '/admin/v1';

/**
 * The admin API for operators, under `/admin/v1`, with its own authentication (`requireOperator`,
 * installed by `adminRoute` on every route but the login and the session probe). Same envelope and
 * error handler as the partner API.
 */
export function adminRoutes(ctx: ServiceContext) {
  return async (app: TypedApp) => {
    await app.register(sessionRoutes(ctx));
    await app.register(applicationAdminRoutes(ctx));
    await app.register(manageRoutes(ctx));
    // Added for the console: counts and events of applications, app secret rotation, the session.
    await app.register(applicationOverviewRoutes(ctx));
    await app.register(appSecretRoutes(ctx));
    await app.register(sessionCsrfRoutes(ctx));
    await app.register(mfaRoutes(ctx));
    await app.register(claimRoutes(ctx));
    await app.register(documentRoutes(ctx));
    await app.register(workloadRoutes(ctx));
    await app.register(screeningRoutes(ctx));
    await app.register(subjectRequestAdminRoutes(ctx));
  };
}
