import type { FastifyInstance } from 'fastify';
import type { ServiceContext } from '../../context.ts';
import { success } from '../envelope.ts';

/** Liveness, readiness and the API reference. */
export function systemRoutes(ctx: ServiceContext) {
  return async (app: FastifyInstance) => {
    app.get('/healthz', { config: { operation: 'system.health' }, schema: { hide: true } }, async (request) =>
      success(request, { status: 'ok' }),
    );

    app.get(
      '/readyz',
      { config: { operation: 'system.ready' }, schema: { hide: true } },
      async (request, reply) => {
        const reasons: string[] = [];
        try {
          await ctx.store.ping();
        } catch {
          reasons.push('store unreachable');
        }
        if (reasons.length > 0) {
          reply.code(503).header('retry-after', '5');
          return { code: 50301, data: { ready: false, reasons }, msg: 'not ready' };
        }
        return success(request, { ready: true, reasons });
      },
    );

    app.get('/openapi.json', { config: { operation: 'system.openapi' }, schema: { hide: true } }, async () =>
      app.swagger(),
    );
  };
}
