import type { TypedApp } from '../typedApp.ts';
import { Type } from 'typebox';
import { readAuditTrail } from '../../audit/auditReads.ts';
import { CreatedApp } from '../../partners/credentials.ts';
import type { ServiceContext } from '../../context.ts';
import { createAppAudited, listAppViews, setAppStatus } from '../../partners/appAdministration.ts';
import {
  createOperator,
  listOperatorViews,
  setOperatorDisabled,
  setOperatorPassword,
  setOperatorCompliance,
  setOperatorRole,
} from '../../operators/operators.ts';
import { DEFAULT_LIMIT } from '../../applications/views/listApplications.ts';
import { problem } from '../../errors/problems.ts';
import { ValidationError } from '../../errors/serviceError.ts';
import { success } from '../envelope.ts';
import { adminRoute } from './adminRoute.ts';
import { changedBy, operatorOf } from './operatorAuth.ts';
import { EmptyBody, numberOf, ok } from './schemas.ts';
import { AppBody, AppIdParams, AppRiskLevelBody, AppRiskLevelView, AppView } from './appSchemas.ts';
import { setPartnerRiskLevel } from '../../risk/partnerRiskLevel.ts';
import { AuditPage, AuditQuery } from './auditSchemas.ts';
import {
  OperatorBody,
  OperatorListItem,
  OperatorView,
  PasswordBody,
  RoleBody,
  UsernameParams,
} from './operatorSchemas.ts';
import { MAX_LIMIT } from '../../applications/views/listApplications.ts';

/** Admins manage apps and operators; every operator reads the audit trail. */
export function manageRoutes(ctx: ServiceContext) {
  return async (app: TypedApp) => {
    registerAppRoutes(app, ctx);
    registerOperatorRoutes(app, ctx);
    registerAuditRoute(app, ctx);
  };
}

function registerAppRoutes(app: TypedApp, ctx: ServiceContext): void {
  app.get(
    '/apps',
    adminRoute(ctx, {
      caller: 'admin',
      operation: 'admin.app.list',
      operationId: 'adminListApps',
      summary: 'List apps',
      schema: { response: ok(Type.Array(AppView)) },
    }),
    async (request) => success(request, await listAppViews(ctx)),
  );

  app.post(
    '/apps',
    adminRoute(ctx, {
      caller: 'admin',
      operation: 'admin.app.create',
      operationId: 'adminCreateApp',
      summary: 'Create an app; its secret is shown this once',
      errors: ['fieldEmpty', 'fieldTooLong'],
      schema: { body: AppBody, response: ok(CreatedApp) },
    }),
    async (request) => {
      const { name } = request.body;
      return success(request, await createAppAudited(ctx, name, changedBy(request)));
    },
  );

  for (const [action, status] of [
    ['disable', 'disabled'],
    ['enable', 'active'],
  ] as const) {
    app.post(
      `/apps/:app_id/${action}`,
      adminRoute(ctx, {
        caller: 'admin',
        operation: `admin.app.${action}`,
        operationId: `admin${action === 'disable' ? 'Disable' : 'Enable'}App`,
        summary: `${action} an app`,
        errors: ['appNotFound'],
        schema: { params: AppIdParams, body: EmptyBody, response: ok(AppView) },
      }),
      async (request) => {
        const { app_id } = request.params;
        return success(request, await setAppStatus(ctx, app_id, status, changedBy(request)));
      },
    );
  }

  app.post(
    '/apps/:app_id/risk-level',
    adminRoute(ctx, {
      caller: 'admin',
      operation: 'admin.app.risk_level',
      operationId: 'adminSetAppRiskLevel',
      summary: "Set a partner's risk level; its applications not yet final are assessed again",
      description:
        "The partner_risk factor of every rating of the app's applications (docs/RISK.md). Audited " +
        '(app.risk_level, with the reason); the partner never sees it.',
      errors: ['appNotFound', 'fieldNotAllowed', 'fieldTooLong', 'fieldEmpty'],
      schema: { params: AppIdParams, body: AppRiskLevelBody, response: ok(AppRiskLevelView) },
    }),
    async (request) => {
      const { app_id } = request.params;
      return success(request, await setPartnerRiskLevel(ctx, app_id, request.body, changedBy(request)));
    },
  );
}

function registerOperatorRoutes(app: TypedApp, ctx: ServiceContext): void {
  app.get(
    '/operators',
    adminRoute(ctx, {
      caller: 'admin',
      operation: 'admin.operator.list',
      operationId: 'adminListOperators',
      summary: 'List operators',
      schema: { response: ok(Type.Array(OperatorListItem)) },
    }),
    async (request) => success(request, await listOperatorViews(ctx)),
  );

  app.post(
    '/operators',
    adminRoute(ctx, {
      caller: 'admin',
      operation: 'admin.operator.create',
      operationId: 'adminCreateOperator',
      summary: 'Create an operator',
      errors: ['operatorExists', 'passwordTooShort', 'passwordCommon', 'fieldFormat', 'fieldNotAllowed'],
      schema: { body: OperatorBody, response: ok(OperatorView) },
    }),
    async (request) => {
      return success(request, await createOperator(ctx, request.body, changedBy(request)));
    },
  );

  for (const [action, disabled] of [
    ['disable', true],
    ['enable', false],
  ] as const) {
    app.post(
      `/operators/:username/${action}`,
      adminRoute(ctx, {
        caller: 'admin',
        operation: `admin.operator.${action}`,
        operationId: `admin${disabled ? 'Disable' : 'Enable'}Operator`,
        summary: `${action} an operator`,
        errors: ['operatorNotFound', 'selfChangeForbidden'],
        schema: { params: UsernameParams, body: EmptyBody, response: ok(OperatorView) },
      }),
      async (request) => {
        const { username } = request.params;
        return success(request, await setOperatorDisabled(ctx, username, disabled, changedBy(request)));
      },
    );
  }

  app.post(
    '/operators/:username/role',
    adminRoute(ctx, {
      caller: 'admin',
      operation: 'admin.operator.role',
      operationId: 'adminSetOperatorRole',
      summary: "Change an operator's role",
      errors: ['operatorNotFound', 'selfChangeForbidden', 'fieldNotAllowed'],
      schema: { params: UsernameParams, body: RoleBody, response: ok(OperatorView) },
    }),
    async (request) => {
      const { username } = request.params;
      const { role } = request.body;
      return success(request, await setOperatorRole(ctx, username, role, changedBy(request)));
    },
  );

  app.post(
    '/operators/:username/compliance',
    adminRoute(ctx, {
      caller: 'admin',
      operation: 'admin.operator.compliance',
      operationId: 'adminSetOperatorCompliance',
      summary: "Give or take an operator's compliance duty",
      description:
        'Admin; audited. An operator with the duty still sees the applications a deletion request restricted under anti-money-laundering record keeping (docs/PRIVACY.md); everyone else finds them nowhere. Apart from the role, which stays linear.',
      errors: ['operatorNotFound'],
      schema: {
        params: UsernameParams,
        body: Type.Object({ compliance: Type.Boolean() }, { additionalProperties: false }),
        response: ok(OperatorView),
      },
    }),
    async (request) => {
      const { username } = request.params;
      return success(
        request,
        await setOperatorCompliance(ctx, username, request.body.compliance, changedBy(request)),
      );
    },
  );

  app.post(
    '/operators/:username/password',
    adminRoute(ctx, {
      caller: 'admin',
      operation: 'admin.operator.password',
      operationId: 'adminSetOperatorPassword',
      summary: "Set an operator's password; ends its sessions",
      errors: ['operatorNotFound', 'passwordTooShort', 'passwordCommon', 'passwordReused'],
      schema: { params: UsernameParams, body: PasswordBody, response: ok(OperatorView) },
    }),
    async (request) => {
      const { username } = request.params;
      const { password } = request.body;
      return success(request, await setOperatorPassword(ctx, username, password, changedBy(request)));
    },
  );
}

function registerAuditRoute(app: TypedApp, ctx: ServiceContext): void {
  app.get(
    '/audit',
    adminRoute(ctx, {
      caller: 'viewer',
      operation: 'admin.audit.list',
      operationId: 'adminListAudit',
      summary: 'Read the audit trail, newest first',
      description:
        'Each read is itself recorded, after it, as one `audit.read` row: who, the filter and how many rows it answered (PCI DSS v4 10.2.1.3).',
      errors: ['fieldFormat'],
      schema: { querystring: AuditQuery, response: ok(AuditPage) },
    }),
    async (request) => {
      const { query } = request;
      const limit = numberOf(query.limit) ?? DEFAULT_LIMIT;
      if (limit < 1 || limit > MAX_LIMIT) {
        throw new ValidationError([
          problem('limit', 'fieldFormat', {
            rule: `must be a whole number from 1 to ${MAX_LIMIT}`,
            rule_zh: `必须是 1 到 ${MAX_LIMIT} 之间的整数`,
          }),
        ]);
      }
      return success(
        request,
        await readAuditTrail(
          ctx.store.db,
          {
            actor: query.actor,
            action: query.action,
            targetType: query.target_type,
            targetId: query.target_id,
            beforeId: numberOf(query.cursor),
            limit,
          },
          { role: operatorOf(request).role },
          changedBy(request),
          ctx.now(),
        ),
      );
    },
  );
}
