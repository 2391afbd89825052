import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';

/**
 * The app a route plugin receives: each handler's `request.body`, `query` and `params` take their
 * types from the route's TypeBox schemas, so a handler reads what the validator checked, no cast.
 */
export type TypedApp = Parameters<FastifyPluginAsyncTypebox>[0];
