import type { FastifyInstance } from 'fastify';
import { ServiceError } from '../errors/serviceError.ts';
import { readJsonObject } from './jsonBody.ts';

/**
 * Bodies are JSON objects in UTF-8, read strictly: duplicate keys, prototype keys, bad encoding
 * and excessive nesting are refused instead of being silently accepted by JSON.parse.
 * Any other content type is a 415.
 */
export function installJsonParser(app: FastifyInstance, maxDepth?: number): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(
    /^application\/([a-z0-9.+-]+\+)?json$/i,
    { parseAs: 'buffer' },
    (_request, body, done) => {
      const result = readJsonObject(body as Buffer, maxDepth === undefined ? undefined : { maxDepth });
      if (result.ok) return done(null, result.value);
      const params: Record<string, string | number> = {};
      if (result.field !== undefined) params['field'] = result.field;
      if (result.max !== undefined) params['max'] = result.max;
      done(new ServiceError(result.error, { params }), undefined);
    },
  );
}
