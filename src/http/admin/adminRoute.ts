import type { TSchema } from 'typebox';
import type { Role } from '../../access/roles.ts';
import type { ServiceContext } from '../../context.ts';
import type { ErrorName } from '../../errors/catalogue.ts';
import { errorResponses } from '../schemas.ts';
import { requireOperator } from './operatorAuth.ts';

/**
 * What every admin route shares, said once: who may call it (the `requireOperator` hook, run on
 * `onRequest`), its security, its tags and the errors any operator route can answer. A route
 * states only its own: its operation, its schemas, its successes and the errors its handler
 * raises. The rest of its documented errors are derived (http/routeErrors.ts): its schemas, the
 * body reader, and the guard's `raises`.
 */

/** Who may call: an operator of at least this role, or anyone (signing in, the session probe). */
export type Caller = Role | 'anyone';

const OPERATOR_SECURITY: { [name: string]: string[] }[] = [{ operatorToken: [] }, { operatorCookie: [] }];

/** Answered by any operator route beyond its guard: the validator's own rules and a lost store. */
const OPERATOR_ROUTE_ERRORS: ErrorName[] = ['fieldRequired', 'fieldType', 'fieldUnknown', 'storeUnavailable'];

interface RouteSchema {
  params?: TSchema;
  querystring?: TSchema;
  body?: TSchema;
  /** The route's successes (`ok(View)`); its errors are added here. */
  response: Record<number, unknown>;
}

export interface AdminRouteSpec<S extends RouteSchema> {
  caller: Caller;
  /** Also for a session limited to enrolling a second factor (enrolment, who am I, sign-out). */
  duringEnrolment?: true;
  /** The operation's name in logs, metrics and the audit trail. */
  operation: string;
  operationId: string;
  summary: string;
  description?: string;
  tags?: string[];
  /** The errors the handler raises. */
  errors?: readonly ErrorName[];
  schema: S;
}

/** The options of an admin route: its guard, its config and its documented schema. */
export function adminRoute<S extends RouteSchema>(ctx: ServiceContext, spec: AdminRouteSpec<S>) {
  const guard =
    spec.caller === 'anyone'
      ? undefined
      : requireOperator(ctx, spec.caller, spec.duringEnrolment === true ? { duringEnrolment: true } : {});
  // The guard's errors lead, so that each status lists them before the route's own.
  const errors = guard === undefined ? [] : [...guard.raises, ...OPERATOR_ROUTE_ERRORS];
  return {
    ...(guard === undefined ? {} : { onRequest: guard }),
    config: { operation: spec.operation },
    schema: {
      operationId: spec.operationId,
      summary: spec.summary,
      ...(spec.description === undefined ? {} : { description: spec.description }),
      tags: spec.tags ?? ['admin'],
      security: guard === undefined ? [] : OPERATOR_SECURITY,
      ...spec.schema,
      response: { ...spec.schema.response, ...errorResponses([...errors, ...(spec.errors ?? [])]) },
    },
  };
}
