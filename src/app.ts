import { randomUUID } from 'node:crypto';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { ServiceContext } from './context.ts';
import { ValidationError } from './errors/serviceError.ts';
import { clientError, frameworkError, installErrorHandler } from './http/errorHandler.ts';
import { installIdempotency } from './http/idempotency.ts';
import { installJsonParser } from './http/jsonParser.ts';
import { installRateLimits } from './http/rateLimit.ts';
import { installRouteErrors } from './http/routeErrors.ts';
import { installHttpMetrics } from './http/metricsHooks.ts';
import { installRequestHooks } from './http/requestHooks.ts';
import { responseSerializers } from './http/responseSerializers.ts';
import { DOCUMENT_SCHEMAS, SERVERS, TAGS, webhooksSection, withExamples } from './http/openapiDocs.ts';
import { partnerDocument } from './http/openapiDocuments.ts';
import { docsPageOptions, SERVICE_NAME } from './http/docsPage.ts';
import { adminRoutes, ADMIN_PREFIX } from './http/admin/adminRoutes.ts';
import { webhookAdminRoutes } from './http/admin/webhookRoutes.ts';
import { consoleRoutes } from './http/console/consoleRoutes.ts';
import { applicationRoutes } from './http/routes/applicationRoutes.ts';
import { codeRoutes } from './http/routes/codeRoutes.ts';
import { partnerWebhookRoutes } from './http/routes/partnerWebhookRoutes.ts';
import { eventRoutes } from './http/routes/eventRoutes.ts';
import { subjectRequestRoutes } from './http/routes/subjectRequestRoutes.ts';
import { systemRoutes } from './http/routes/systemRoutes.ts';
import { tokenRoutes } from './http/routes/tokenRoutes.ts';
import { compileValidator } from './validation/schemaValidator.ts';
import type { TSchema } from 'typebox';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** One identifier per operation, used in routes, logs and metrics. */
    operation?: string;
  }
}

export interface BuildOptions {
  logger: FastifyBaseLogger;
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Builds the HTTP application. Never listens: `server.ts` does, and tests use `inject` or listen. */
export async function build(ctx: ServiceContext, options: BuildOptions): Promise<FastifyInstance> {
  const { config } = ctx;
  const app = Fastify({
    loggerInstance: options.logger,
    // Fastify's own two lines per request are replaced by the one line of requestHooks.ts.
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: config.bodyLimitBytes,
    requestTimeout: config.requestTimeoutMs,
    keepAliveTimeout: config.keepAliveTimeoutMs,
    connectionTimeout: config.requestTimeoutMs,
    // Node cuts off a client whose headers (or whole request) take longer than the time-outs; it
    // looks every `connectionsCheckingInterval`, so a slow-drip client goes close to the time-out.
    http: {
      headersTimeout: config.headersTimeoutMs,
      requestTimeout: config.requestTimeoutMs,
      connectionsCheckingInterval: Math.min(1000, Math.floor(config.headersTimeoutMs / 2)),
    },
    trustProxy: config.protection.trustProxy,
    return503OnClosing: true,
    requestIdHeader: false,
    genReqId: (request) => {
      const sent = request.headers['x-request-id'];
      return typeof sent === 'string' && REQUEST_ID.test(sent) ? sent : randomUUID();
    },
    routerOptions: { maxParamLength: 128 },
    // Requests refused before any route (a bad URL, oversized headers, not HTTP) get the envelope too.
    frameworkErrors: frameworkError,
    clientErrorHandler: clientError,
  });
  app.decorateRequest('partner', null);
  app.decorateRequest('operator', null);
  closeConnectionsAsTheyIdle(app);

  // One validator for every route: every problem at once, no coercion, catalogue codes.
  app.setValidatorCompiler(({ schema }) => {
    const validate = compileValidator(schema as TSchema);
    return (data: unknown) => {
      const result = validate(data);
      return result.ok ? { value: result.value } : { error: new ValidationError(result.problems) };
    };
  });
  app.setSerializerCompiler(responseSerializers());
  installJsonParser(app, config.protection.jsonMaxDepth);
  installErrorHandler(app, config.bodyLimitBytes);
  installHttpMetrics(app, ctx);
  // Before the routes: `config: { idempotent: true }` on a route switches idempotency keys on.
  installIdempotency(app, ctx);
  // After the hooks that add route hooks, before the OpenAPI plugin reads the routes.
  installRouteErrors(app);
  await installRateLimits(app, config, options.logger);

  installRequestHooks(app, ctx);

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: SERVICE_NAME,
        version: '1.0.0',
        description:
          'Partner platforms submit applications for payment-network cards and follow them through review, issuance and delivery. Every response is the envelope `{code, data, msg}`; `code` 0 is success, otherwise HTTP status × 100 + detail.',
      },
      servers: SERVERS,
      tags: TAGS,
      webhooks: webhooksSection(),
      components: {
        schemas: DOCUMENT_SCHEMAS,
        securitySchemes: {
          accessToken: {
            type: 'apiKey',
            in: 'header',
            name: 'Authorization',
            description: 'The token from the token exchange, bare or as `Bearer <token>`.',
          },
          operatorToken: {
            type: 'http',
            scheme: 'bearer',
            description: 'Admin API: the token of the login.',
          },
          operatorCookie: { type: 'apiKey', in: 'cookie', name: 'cardapply_session' },
        },
      },
      security: [{ accessToken: [] }],
    },
    // Complete request and response examples per partner operation (src/http/openapiExamples.ts).
    transform: withExamples,
  });
  // The reference at /docs renders the partner API's document.
  await app.register(swaggerUi, {
    routePrefix: '/docs',
    staticCSP: true,
    ...docsPageOptions(),
    transformSpecification: (document) => partnerDocument(document as Record<string, unknown>),
  });

  await app.register(systemRoutes(ctx));
  await app.register(tokenRoutes(ctx));
  await app.register(applicationRoutes(ctx));
  await app.register(adminRoutes(ctx), { prefix: ADMIN_PREFIX });
  await app.register(webhookAdminRoutes(ctx), { prefix: ADMIN_PREFIX });
  await app.register(consoleRoutes(ctx));
  await app.register(codeRoutes(ctx));
  await app.register(eventRoutes(ctx));
  await app.register(partnerWebhookRoutes(ctx));
  await app.register(subjectRequestRoutes(ctx));
  return app;
}

/**
 * Fastify's close ends the connections idle at that moment, once; a request still in flight then
 * ends on a keep-alive connection nobody looks at again, and the close (so a rolling restart's
 * drain) waits for the client to drop it: KEEP_ALIVE_TIMEOUT_MS, or the client's own keep-alive
 * (3 to 4 s with fetch). While the server closes, each connection is closed as soon as it idles.
 */
const IDLE_SWEEP_MS = 25;

function closeConnectionsAsTheyIdle(app: FastifyInstance): void {
  app.addHook('preClose', (done) => {
    const server = app.server;
    if (!server.listening) return done();
    const sweep = setInterval(() => server.closeIdleConnections(), IDLE_SWEEP_MS);
    sweep.unref();
    server.once('close', () => clearInterval(sweep));
    done();
  });
}
