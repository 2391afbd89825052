import type { FastifyInstance } from 'fastify';
import type { ServiceContext } from '../context.ts';
import { ServiceError } from '../errors/serviceError.ts';

/**
 * The hooks every request runs, as few and as cheap as they can be: each is a plain function that
 * calls `done` (Fastify runs that without a promise and a turn of the microtask queue, unlike an
 * async hook), and the response's metrics and its log line share one hook.
 */
export function installRequestHooks(app: FastifyInstance, ctx: ServiceContext): void {
  const { metrics } = ctx;
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    reply.header('cache-control', 'no-store');
    reply.header('x-content-type-options', 'nosniff');
    done();
  });
  // A POST without a body is refused before anything else looks at it.
  app.addHook('preValidation', (request, _reply, done) => {
    if (request.method === 'POST' && (request.body === undefined || request.body === null)) {
      done(new ServiceError('bodyEmpty'));
    } else done();
  });
  // Counted by operation and status with its latency, and one log line; never the body, never
  // identity data.
  app.addHook('onResponse', (request, reply, done) => {
    const operation = request.routeOptions.config.operation;
    const status = reply.statusCode;
    const elapsedMs = reply.elapsedTime;
    metrics.httpRequests.inc({ operation: operation ?? 'unknown', status_code: String(status) });
    metrics.httpDuration.observe({ operation: operation ?? 'unknown' }, elapsedMs / 1000);
    request.log.info(
      {
        method: request.method,
        route: request.routeOptions.url ?? 'unknown',
        operation,
        status,
        duration_ms: Math.round(elapsedMs * 100) / 100,
        app_id: request.partner?.appId,
        operator: request.operator?.username,
      },
      'request',
    );
    done();
  });
}
