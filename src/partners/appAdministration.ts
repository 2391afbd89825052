import { actorName, type ChangedBy } from '../audit/actor.ts';
import { findApp, listApps, updateApp } from './appRepository.ts';
import { createApp, type CreatedApp } from './credentials.ts';
import { recordAudit } from '../audit/auditTrail.ts';
import { audited } from '../audit/audited.ts';
import type { ServiceContext } from '../context.ts';
import { ServiceError } from '../errors/serviceError.ts';
import type { AppStatus } from '../store/tables.ts';

/**
 * What admins do to partners' apps from the back office, each change audited: create (the secret
 * is shown once), disable (every token stops working at once) and enable.
 */
export interface AppView {
  app_id: string;
  name: string;
  status: AppStatus;
  created_at: number;
  updated_at: number;
}

function viewOf(row: {
  app_id: string;
  name: string;
  status: AppStatus;
  created_at: number;
  updated_at: number;
}): AppView {
  return {
    app_id: row.app_id,
    name: row.name,
    status: row.status,
    created_at: Math.floor(row.created_at / 1000),
    updated_at: Math.floor(row.updated_at / 1000),
  };
}

export async function listAppViews(ctx: ServiceContext): Promise<AppView[]> {
  return (await listApps(ctx.store.db)).map(viewOf);
}

export async function createAppAudited(
  ctx: ServiceContext,
  name: string,
  by: ChangedBy,
): Promise<CreatedApp> {
  return audited(ctx, by, (inner) => createApp(inner.store.db, name, inner.now()), {
    action: 'app.create',
    targetType: 'app',
    targetId: (created) => created.app_id,
    details: () => ({ app_name: name }),
    // createApp commits on its own (its transaction); the entry follows at once.
    atomic: false,
  });
}

export async function setAppStatus(
  ctx: ServiceContext,
  appId: string,
  status: AppStatus,
  by: ChangedBy,
): Promise<AppView> {
  return ctx.store.transaction(async (trx) => {
    const app = await findApp(trx, appId);
    if (app === undefined) throw new ServiceError('appNotFound');
    const now = ctx.now();
    await updateApp(trx, appId, { status, updated_at: now });
    await recordAudit(trx, {
      actor: actorName(by.actor),
      action: status === 'disabled' ? 'app.disable' : 'app.enable',
      targetType: 'app',
      targetId: appId,
      details: { from: app.status, to: status },
      source: by.source,
      at: now,
    });
    return viewOf({ ...app, status, updated_at: now });
  });
}
