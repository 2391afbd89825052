import type { TypedApp } from '../typedApp.ts';
import { Type } from 'typebox';
import { listAudit } from '../../audit/auditTrail.ts';
import { CreatedApp } from '../../partners/credentials.ts';
import type { ServiceContext } from '../../context.ts';
import { createAppAudited, listAppViews, setAppStatus } from '../../partners/appAdministration.ts';
import {
  createOperator,
  listOperatorViews,
  setOperatorDisabled,
  setOperatorPassword,
  setOperatorRole,
} from '../../operators/operators.ts';
import { DEFAULT_LIMIT } from '../../applications/views/listApplications.ts';
import { problem } from '../../errors/problems.ts';
import { ValidationError } from '../../errors/serviceError.ts';
import { success } from '../envelope.ts';
import { changedBy, operatorOf, requireOperator } from './operatorAuth.ts';
import { ADMIN_SECURITY, adminBodyErrors, adminErrors, EmptyBody, numberOf, ok } from './schemas.ts';
import { AppBody, AppIdParams, AppView } from './appSchemas.ts';
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

const route = (operationId: string, summary: string) => ({
  operationId,
  summary,
  tags: ['admin'],
  security: ADMIN_SECURITY,
});

/** Admins manage apps and operators; every operator reads the audit trail. */
export function manageRoutes(ctx: ServiceContext) {
  return async (app: TypedApp) => {
    const admin = requireOperator(ctx, 'admin');

    app.get(
      '/apps',
      {
        onRequest: admin,
        config: { operation: 'admin.app.list' },
        schema: {
          ...route('adminListApps', 'List apps'),
          response: { ...ok(Type.Array(AppView)), ...adminErrors() },
        },
      },
      async (request) => success(request, await listAppViews(ctx)),
    );

    app.post(
      '/apps',
      {
        onRequest: admin,
        config: { operation: 'admin.app.create' },
        schema: {
          ...route('adminCreateApp', 'Create an app; its secret is shown this once'),
          body: AppBody,
          response: { ...ok(CreatedApp), ...adminBodyErrors('fieldEmpty', 'fieldTooLong') },
        },
      },
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
        {
          onRequest: admin,
          config: { operation: `admin.app.${action}` },
          schema: {
            ...route(`admin${action === 'disable' ? 'Disable' : 'Enable'}App`, `${action} an app`),
            params: AppIdParams,
            body: EmptyBody,
            response: { ...ok(AppView), ...adminBodyErrors('appNotFound') },
          },
        },
        async (request) => {
          const { app_id } = request.params;
          return success(request, await setAppStatus(ctx, app_id, status, changedBy(request)));
        },
      );
    }

    app.get(
      '/operators',
      {
        onRequest: admin,
        config: { operation: 'admin.operator.list' },
        schema: {
          ...route('adminListOperators', 'List operators'),
          response: { ...ok(Type.Array(OperatorListItem)), ...adminErrors() },
        },
      },
      async (request) => success(request, await listOperatorViews(ctx)),
    );

    app.post(
      '/operators',
      {
        onRequest: admin,
        config: { operation: 'admin.operator.create' },
        schema: {
          ...route('adminCreateOperator', 'Create an operator'),
          body: OperatorBody,
          response: {
            ...ok(OperatorView),
            ...adminBodyErrors('operatorExists', 'passwordTooShort', 'fieldFormat', 'fieldNotAllowed'),
          },
        },
      },
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
        {
          onRequest: admin,
          config: { operation: `admin.operator.${action}` },
          schema: {
            ...route(`admin${disabled ? 'Disable' : 'Enable'}Operator`, `${action} an operator`),
            params: UsernameParams,
            body: EmptyBody,
            response: { ...ok(OperatorView), ...adminBodyErrors('operatorNotFound', 'selfChangeForbidden') },
          },
        },
        async (request) => {
          const { username } = request.params;
          return success(request, await setOperatorDisabled(ctx, username, disabled, changedBy(request)));
        },
      );
    }

    app.post(
      '/operators/:username/role',
      {
        onRequest: admin,
        config: { operation: 'admin.operator.role' },
        schema: {
          ...route('adminSetOperatorRole', "Change an operator's role"),
          params: UsernameParams,
          body: RoleBody,
          response: {
            ...ok(OperatorView),
            ...adminBodyErrors('operatorNotFound', 'selfChangeForbidden', 'fieldNotAllowed'),
          },
        },
      },
      async (request) => {
        const { username } = request.params;
        const { role } = request.body;
        return success(request, await setOperatorRole(ctx, username, role, changedBy(request)));
      },
    );

    app.post(
      '/operators/:username/password',
      {
        onRequest: admin,
        config: { operation: 'admin.operator.password' },
        schema: {
          ...route('adminSetOperatorPassword', "Set an operator's password; ends its sessions"),
          params: UsernameParams,
          body: PasswordBody,
          response: { ...ok(OperatorView), ...adminBodyErrors('operatorNotFound', 'passwordTooShort') },
        },
      },
      async (request) => {
        const { username } = request.params;
        const { password } = request.body;
        return success(request, await setOperatorPassword(ctx, username, password, changedBy(request)));
      },
    );

    app.get(
      '/audit',
      {
        onRequest: requireOperator(ctx, 'viewer'),
        config: { operation: 'admin.audit.list' },
        schema: {
          ...route('adminListAudit', 'Read the audit trail, newest first'),
          querystring: AuditQuery,
          response: { ...ok(AuditPage), ...adminErrors('fieldFormat') },
        },
      },
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
          await listAudit(
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
          ),
        );
      },
    );
  };
}
