import fastJson from 'fast-json-stringify';

type Serialize = (data: unknown) => string;

/**
 * Fastify's serializer compiler for the whole service. Successes are serialised from their schema
 * (fast, and fields a schema does not name never go out); errors are envelopes built by the one
 * error handler: compiling a serialiser for every documented error status of every route would
 * cost tens of megabytes for nothing. Routes that answer with the same schema share one serialiser:
 * ten routes had each compiled its own copy of the same 77 KB of source.
 */
export function responseSerializers(): (route: { schema: unknown; httpStatus?: string }) => Serialize {
  const compiled = new Map<string, Serialize>();
  const asJson: Serialize = (data) => JSON.stringify(data);
  return ({ schema, httpStatus }) => {
    if (!String(httpStatus).startsWith('2')) return asJson;
    const key = JSON.stringify(schema);
    let serialize = compiled.get(key);
    if (serialize === undefined) {
      serialize = fastJson(schema as object);
      compiled.set(key, serialize);
    }
    return serialize;
  };
}
