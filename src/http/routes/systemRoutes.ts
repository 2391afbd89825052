import { adminDocument, partnerDocument } from '../openapiDocuments.ts';
import type { TypedApp } from '../typedApp.ts';
import type { ServiceContext } from '../../context.ts';
import { ServiceError } from '../../errors/serviceError.ts';
import { screeningNotReadyReasons } from '../../screening/screeningReadiness.ts';
import { languageOf, serviceErrorEnvelope, success } from '../envelope.ts';

/** A readiness check answers within this, whatever the store does: load balancers time out too. */
const READY_TIMEOUT_MS = 2_000;

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('timed out')), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/**
 * Liveness (the process answers), readiness (the store answers within a time-out, every migration
 * is applied, a sanctions list is in force and fresh, every background worker this process is
 * meant to run runs) and the API reference.
 */
export function systemRoutes(ctx: ServiceContext) {
  return async (app: TypedApp) => {
    app.get('/healthz', { config: { operation: 'system.health' }, schema: { hide: true } }, async (request) =>
      success(request, { status: 'ok' }),
    );

    // Migrations only move forward: once all are seen applied, they stay so for this code.
    let migrated = false;
    app.get(
      '/readyz',
      { config: { operation: 'system.ready' }, schema: { hide: true } },
      async (request, reply) => {
        const reasons: string[] = [];
        try {
          await withTimeout(ctx.store.ping(), READY_TIMEOUT_MS);
          if (!migrated) {
            const pending = (await withTimeout(ctx.store.migrationStatus(), READY_TIMEOUT_MS)).filter(
              (m) => m.appliedAt === null,
            );
            if (pending.length > 0)
              reasons.push(`migrations pending: ${pending.map((m) => m.version).join(', ')}`);
            else migrated = true;
          }
          // Screening off or stale is never silent (docs/SCREENING.md), unless SCREENING_REQUIRED=false.
          reasons.push(...(await withTimeout(screeningNotReadyReasons(ctx), READY_TIMEOUT_MS)));
        } catch {
          reasons.push('store unreachable');
        }
        for (const name of ctx.workers.notRunning()) reasons.push(`${name} not running`);
        if (reasons.length > 0) {
          reply.code(503).header('retry-after', '5');
          const envelope = serviceErrorEnvelope(
            new ServiceError('notReady', { params: { reasons: reasons.join('; ') } }),
            languageOf(request),
          );
          return { ...envelope, data: { ready: false, reasons } };
        }
        return success(request, { ready: true, reasons });
      },
    );

    // The partner API's own document; the operators' admin API has its own.
    let partner: unknown;
    let admin: unknown;
    app.get(
      '/openapi.json',
      { config: { operation: 'system.openapi' }, schema: { hide: true } },
      async () => (partner ??= partnerDocument(app.swagger() as unknown as Record<string, unknown>)),
    );
    app.get(
      '/admin/openapi.json',
      { config: { operation: 'system.openapi_admin' }, schema: { hide: true } },
      async () => (admin ??= adminDocument(app.swagger() as unknown as Record<string, unknown>)),
    );
  };
}
