import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ERRORS, type ErrorName } from '../errors/catalogue.ts';
import { ServiceError, ValidationError } from '../errors/serviceError.ts';
import { describe } from '../errors/describe.ts';
import { isStoreUnavailable } from '../store/errors.ts';
import { languageOf, serviceErrorEnvelope, validationEnvelope } from './envelope.ts';

/** Seconds a client (partner or console) should wait when the store is unavailable. */
const STORE_RETRY_AFTER_SECONDS = 5;

/** Fastify's own request errors, by their stable codes. */
const FASTIFY_ERRORS: Record<string, ErrorName> = {
  FST_ERR_CTP_BODY_TOO_LARGE: 'bodyTooLarge',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'unsupportedContentType',
  FST_ERR_CTP_INVALID_TYPE: 'unsupportedContentType',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'bodyEmpty',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'requestMalformed',
  FST_ERR_BAD_URL: 'requestMalformed',
  FST_ERR_ASYNC_CONSTRAINT: 'requestMalformed',
};

/**
 * The one place errors become responses. Expected failures render from the catalogue; anything
 * else is a generic 500 whose message is never the exception's text.
 */
export function installErrorHandler(app: FastifyInstance, bodyLimit: number): void {
  app.setErrorHandler((error: FastifyError | Error, request: FastifyRequest, reply: FastifyReply) => {
    const language = languageOf(request);
    if (error instanceof ValidationError) {
      return reply.code(422).send(validationEnvelope(error, language));
    }
    if (error instanceof ServiceError) {
      if (error.headers !== undefined) reply.headers(error.headers);
      return reply.code(ERRORS[error.error].status).send(serviceErrorEnvelope(error, language));
    }
    const fastifyCode = (error as FastifyError).code;
    const known = typeof fastifyCode === 'string' ? FASTIFY_ERRORS[fastifyCode] : undefined;
    if (known !== undefined) {
      const params = known === 'bodyTooLarge' ? { max: bodyLimit } : undefined;
      const rendered = serviceErrorEnvelope(new ServiceError(known, params ? { params } : {}), language);
      return reply.code(ERRORS[known].status).send(rendered);
    }
    if (isStoreUnavailable(error)) {
      request.log.warn({ err: describe(error) }, 'store unavailable');
      reply.header('retry-after', String(STORE_RETRY_AFTER_SECONDS));
      const rendered = serviceErrorEnvelope(new ServiceError('storeUnavailable'), language);
      return reply.code(503).send({ ...rendered, data: { retry_after: STORE_RETRY_AFTER_SECONDS } });
    }
    const status = (error as FastifyError).statusCode;
    if (typeof status === 'number' && status >= 400 && status < 500) {
      return reply.code(400).send(serviceErrorEnvelope(new ServiceError('requestMalformed'), language));
    }
    request.log.error({ err: describe(error) }, 'unexpected error');
    return reply.code(500).send(serviceErrorEnvelope(new ServiceError('internal'), language));
  });

  app.setNotFoundHandler((request, reply) => {
    reply.code(404).send(serviceErrorEnvelope(new ServiceError('routeNotFound'), languageOf(request)));
  });
}

/**
 * Requests the router refuses before any hook runs (a URL with a bad percent escape): the envelope,
 * not Fastify's own error body, which names the framework and quotes the URL. (`frameworkErrors`)
 */
export function frameworkError(_error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  void reply.code(400).send(serviceErrorEnvelope(new ServiceError('requestMalformed'), languageOf(request)));
}

/**
 * Requests the HTTP parser refuses, which no route sees: a slow client, oversized headers, bytes that
 * are not HTTP. Answered on the socket with the envelope, then the connection is closed.
 * (`clientErrorHandler`; Fastify's default answers with its own error body.)
 */
export function clientError(error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const name: ErrorName =
    error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? 'requestTimeout'
      : error.code === 'HPE_HEADER_OVERFLOW'
        ? 'headersTooLarge'
        : 'requestMalformed';
  const status = ERRORS[name].status;
  const body = JSON.stringify(serviceErrorEnvelope(new ServiceError(name), 'en'));
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}
