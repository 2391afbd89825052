import type { FastifyInstance } from 'fastify';
import type { ServiceContext } from '../context.ts';
import { ERRORS } from '../errors/catalogue.ts';
import { ServiceError, ValidationError } from '../errors/serviceError.ts';

/**
 * Counts field problems by catalogue code and rate-limit refusals (both seen as the errors they are thrown as, before the
 * error handler renders them), and serves `/metrics` unless METRICS_PORT moves it to a listener of
 * its own.
 */
export function installHttpMetrics(app: FastifyInstance, ctx: ServiceContext): void {
  const { metrics } = ctx;
  metrics.collectProcessMetrics();

  // Responses are counted in the one onResponse hook of requestHooks.ts.
  app.addHook('onError', (_request, _reply, error, done) => {
    if (error instanceof ValidationError) {
      for (const p of error.problems) metrics.validationFailures.inc({ code: String(ERRORS[p.error].code) });
    } else if (error instanceof ServiceError) {
      if (error.error === 'rateLimited') metrics.rateLimitRejections.inc({ limit: 'app' });
      else if (error.error === 'concurrencyLimited')
        metrics.rateLimitRejections.inc({ limit: 'concurrency' });
      else if (error.error === 'authAttemptsLimited') metrics.rateLimitRejections.inc({ limit: 'auth' });
    }
    done();
  });

  if (ctx.config.operations.metricsPort === undefined) {
    app.get(
      '/metrics',
      { config: { operation: 'system.metrics' }, schema: { hide: true } },
      async (_request, reply) => {
        const { contentType, body } = await metrics.exposition();
        return reply.type(contentType).send(body);
      },
    );
  }
}
