import type { FastifyInstance, RouteOptions } from 'fastify';
import type { ErrorName } from '../errors/catalogue.ts';
import { schemaRules } from '../validation/schemaValidator.ts';
import { documentedErrors, errorResponses } from './schemas.ts';

/**
 * Each operation's documented errors, derived from what answers for it, so that the document
 * cannot drift from the code:
 *
 * - the route declares the errors its handler raises (`errorResponses([...])` in its schema, or
 *   `errors` of `adminRoute` for an admin route);
 * - the schemas of its body, query, path and headers add every rule the validator can report for
 *   them (a `maxLength` documents 42203, an enum 42206: `schemaRules`);
 * - a route with a body adds what the JSON body reader answers (400, 413, 415);
 * - a route hook (an `onRequest`, `preValidation` or `preHandler` function) adds the errors it
 *   declares with `raises` (operator authentication, idempotency keys);
 * - every operation may fail unexpectedly (500).
 *
 * test/contract.prism.test.ts drives every operation with valid and broken requests through a
 * validating proxy and fails on a code its operation does not list.
 */

/** What the JSON body reader and Fastify's content handling answer for a route with a body. */
export const BODY_ERRORS: ErrorName[] = [
  'bodyNotJson',
  'bodyNotObject',
  'bodyDuplicateKey',
  'bodyBadEncoding',
  'bodyForbiddenKey',
  'bodyTooDeep',
  'bodyEmpty',
  'bodyTooLarge',
  'unsupportedContentType',
  'requestMalformed',
];

type Hook = ((...args: never[]) => unknown) & { raises?: readonly ErrorName[] };

/** Marks a hook with the errors it can raise; every route it runs on documents them. */
export function raises<H extends (...args: never[]) => unknown>(
  names: readonly ErrorName[],
  hook: H,
): H & { raises: readonly ErrorName[] } {
  return Object.assign(hook, { raises: names });
}

/** The route's documented error responses, with `names` added (each status keeps one entry). */
export function withErrors(
  responses: Record<string | number, unknown>,
  names: readonly ErrorName[],
): Record<string, unknown> {
  const merged: Record<string, unknown> = {};
  for (const [status, response] of Object.entries(responses)) {
    if (status.startsWith('2')) merged[status] = response;
  }
  const all = [...documentedErrors(responses as Record<string, unknown>), ...names];
  for (const [status, response] of Object.entries(errorResponses(all))) merged[status] = response;
  return merged;
}

function hooksOf(route: RouteOptions): Hook[] {
  const hooks: unknown[] = [route.onRequest, route.preValidation, route.preHandler].flat();
  return hooks.filter((hook): hook is Hook => typeof hook === 'function');
}

/** The errors a route can answer beyond those it declares. */
export function derivedErrors(route: RouteOptions): ErrorName[] {
  const schema = route.schema as Record<string, unknown> | undefined;
  const names = new Set<ErrorName>(['internal']);
  for (const part of ['body', 'querystring', 'params', 'headers']) {
    if (schema?.[part] !== undefined) schemaRules(schema[part], names);
  }
  if (schema?.['body'] !== undefined) for (const name of BODY_ERRORS) names.add(name);
  for (const hook of hooksOf(route)) for (const name of hook.raises ?? []) names.add(name);
  return [...names];
}

/**
 * Completes the documented errors of every route registered after this call that documents its
 * responses. Install before the OpenAPI plugin, which reads the schemas as routes are added.
 */
export function installRouteErrors(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    const schema = route.schema as { response?: Record<string, unknown> } | undefined;
    if (schema?.response === undefined) return;
    // Hooks added after this one (idempotency) run later: their errors are added by them.
    schema.response = withErrors(schema.response, derivedErrors(route));
  });
}
