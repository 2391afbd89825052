import fc from 'fast-check';

/**
 * Requests generated from an OpenAPI document, as Schemathesis makes them: for each operation, a
 * valid request (the document's example, or a value built from the schema), requests generated
 * from the schemas, and variations that each break one constraint of the body, the query or the
 * path (a required field left out, a wrong type, a string one longer than allowed, a value
 * outside the enum or the pattern, a number past its bound, a field the schema does not know).
 */

export type Json = Record<string, unknown>;

export interface Parameter {
  name: string;
  in: 'query' | 'path' | 'header' | 'cookie';
  required?: boolean;
  schema: Json;
}

export interface Operation {
  id: string;
  method: string;
  /** The path template, `/admin/v1/applications/{busi_water_no}`. */
  path: string;
  body: Json | undefined;
  example: unknown;
  parameters: Parameter[];
  responses: Record<string, Json>;
}

/** One request, before the fixtures of the run fill in what must be real (serials, ids). */
export interface RequestParts {
  body: unknown;
  query: Record<string, string>;
  path: Record<string, string>;
}

export interface Variation {
  what: string;
  apply(parts: RequestParts): RequestParts;
}

export function operationsOf(document: Json): Operation[] {
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries(document['paths'] as Record<string, Json>)) {
    for (const [method, raw] of Object.entries(item)) {
      const op = raw as Json;
      const media = (op['requestBody'] as Json | undefined)?.['content'] as Record<string, Json> | undefined;
      const json = media?.['application/json'];
      operations.push({
        id: String(op['operationId']),
        method: method.toUpperCase(),
        path,
        body: json?.['schema'] as Json | undefined,
        example: json?.['example'],
        parameters: (op['parameters'] as Parameter[] | undefined) ?? [],
        responses: op['responses'] as Record<string, Json>,
      });
    }
  }
  return operations;
}

/** The codes a response documents (its `code` enum), or undefined when it lists none. */
export function documentedCodes(response: Json | undefined): number[] | undefined {
  const schema = (response?.['content'] as Record<string, Json> | undefined)?.['application/json']?.[
    'schema'
  ] as Json | undefined;
  const parts = (schema?.['allOf'] as Json[] | undefined) ?? [];
  for (const part of parts) {
    const code = (part['properties'] as Record<string, Json> | undefined)?.['code'];
    if (Array.isArray(code?.['enum'])) return code['enum'] as number[];
  }
  return undefined;
}

const MAX_GENERATED_LENGTH = 40;

function patternOf(schema: Json): RegExp | undefined {
  return typeof schema['pattern'] === 'string' ? new RegExp(schema['pattern'], 'u') : undefined;
}

/** A value of the schema, generated (fast-check), for the positive cases beyond the example. */
export function arbitraryOf(schema: Json): fc.Arbitrary<unknown> {
  if (Array.isArray(schema['enum'])) return fc.constantFrom(...(schema['enum'] as unknown[]));
  if ('const' in schema) return fc.constant(schema['const']);
  switch (schema['type']) {
    case 'string': {
      const min = (schema['minLength'] as number | undefined) ?? 0;
      const max = (schema['maxLength'] as number | undefined) ?? MAX_GENERATED_LENGTH;
      const pattern = patternOf(schema);
      if (pattern !== undefined) {
        return fc.stringMatching(pattern).filter((s) => s.length >= min && s.length <= max);
      }
      return fc.string({ minLength: min, maxLength: Math.min(max, Math.max(min, MAX_GENERATED_LENGTH)) });
    }
    case 'integer':
    case 'number':
      return fc.integer({
        min: Math.max((schema['minimum'] as number | undefined) ?? -1_000_000, Number.MIN_SAFE_INTEGER),
        max: Math.min((schema['maximum'] as number | undefined) ?? 1_000_000, Number.MAX_SAFE_INTEGER),
      });
    case 'boolean':
      return fc.boolean();
    case 'array': {
      const items = arbitraryOf((schema['items'] as Json | undefined) ?? {});
      const minLength = (schema['minItems'] as number | undefined) ?? 0;
      const maxLength = Math.min((schema['maxItems'] as number | undefined) ?? 3, minLength + 3);
      return schema['uniqueItems'] === true
        ? fc.uniqueArray(items, { minLength, maxLength, selector: (v) => JSON.stringify(v) })
        : fc.array(items, { minLength, maxLength });
    }
    case 'object': {
      const properties = (schema['properties'] as Record<string, Json> | undefined) ?? {};
      const model: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [key, child] of Object.entries(properties)) model[key] = arbitraryOf(child);
      const requiredKeys = ((schema['required'] as string[] | undefined) ?? []).filter((k) => k in model);
      return fc.record(model, { requiredKeys });
    }
    default:
      return fc.constant('x');
  }
}

/** One plain value of the schema: its example, else the simplest value its constraints allow. */
export function validOf(schema: Json, seed: number): unknown {
  const examples = schema['examples'] as unknown[] | undefined;
  if (examples !== undefined && examples.length > 0) return examples[0];
  if (Array.isArray(schema['enum'])) return schema['enum'][0];
  if ('const' in schema) return schema['const'];
  switch (schema['type']) {
    case 'string': {
      const min = Math.max((schema['minLength'] as number | undefined) ?? 0, 1);
      if (patternOf(schema) !== undefined) return fc.sample(arbitraryOf(schema), { numRuns: 1, seed })[0];
      return 'a'.repeat(min);
    }
    case 'integer':
    case 'number': {
      const lowest = Math.max((schema['minimum'] as number | undefined) ?? 1, 1);
      const highest = schema['maximum'] as number | undefined;
      return highest === undefined ? lowest : Math.min(lowest, highest);
    }
    case 'boolean':
      return true;
    case 'array': {
      const item = validOf((schema['items'] as Json | undefined) ?? {}, seed);
      return Array.from({ length: (schema['minItems'] as number | undefined) ?? 0 }, () => item);
    }
    case 'object': {
      const properties = (schema['properties'] as Record<string, Json> | undefined) ?? {};
      const value: Json = {};
      for (const key of (schema['required'] as string[] | undefined) ?? []) {
        if (properties[key] !== undefined) value[key] = validOf(properties[key], seed);
      }
      return value;
    }
    default:
      return 'x';
  }
}

type Path = (string | number)[];

function setAt(value: unknown, path: Path, leaf: unknown | typeof REMOVE): unknown {
  if (path.length === 0) return leaf;
  const copy = (Array.isArray(value) ? [...value] : { ...(value as Json) }) as Json & unknown[];
  const [head, ...rest] = path as [string | number, ...Path];
  if (rest.length === 0 && leaf === REMOVE) delete copy[head as string];
  else copy[head as string] = setAt(copy[head as string], rest, leaf);
  return copy;
}
const REMOVE = Symbol('remove');

/** A string that does not match the pattern, as short as the schema allows. */
function notMatching(pattern: RegExp, min: number, max: number | undefined): string | undefined {
  const fits = (s: string) => s.length >= min && (max === undefined || s.length <= max);
  const candidates = [
    '!',
    ' ',
    '#'.repeat(Math.max(min, 1)),
    '0'.repeat(Math.max(min, 1)),
    'Z'.repeat(Math.max(min, 1)),
    '-1',
  ];
  return candidates.find((s) => fits(s) && !pattern.test(s)) ?? candidates.find((s) => !pattern.test(s));
}

const OTHER_TYPE: Record<string, unknown> = {
  string: 12345,
  integer: 'abc',
  number: 'abc',
  boolean: 'yes',
  array: 'x',
  object: 'x',
};

/**
 * One variation per constraint of a body schema, each breaking that one constraint of `base`
 * (walking the fields `base` has, and the required ones).
 */
export function bodyVariations(schema: Json, base: unknown, path: Path = []): Variation[] {
  const at = (what: string, leaf: unknown | typeof REMOVE): Variation => ({
    what: `${path.join('.') || 'body'}: ${what}`,
    apply: (parts) => ({ ...parts, body: setAt(parts.body, path, leaf) }),
  });
  const variations: Variation[] = [];
  const type = schema['type'] as string | undefined;
  if (type !== undefined && type in OTHER_TYPE) variations.push(at('wrong type', OTHER_TYPE[type]));
  variations.push(...valueVariations(schema).map(([what, value]) => at(what, value)));
  if (type === 'object') {
    const properties = (schema['properties'] as Record<string, Json> | undefined) ?? {};
    for (const key of (schema['required'] as string[] | undefined) ?? []) {
      variations.push({
        what: `${[...path, key].join('.')}: left out`,
        apply: (parts) => ({ ...parts, body: setAt(parts.body, [...path, key], REMOVE) }),
      });
    }
    if (schema['additionalProperties'] === false)
      variations.push(at('an unknown field', { ...(base as Json), unexpected_field: 1 }));
    const present = (base ?? {}) as Json;
    for (const [key, child] of Object.entries(properties)) {
      if (key in present) variations.push(...bodyVariations(child, present[key], [...path, key]));
    }
  }
  if (type === 'array' && Array.isArray(base)) {
    const items = (schema['items'] as Json | undefined) ?? {};
    const minItems = schema['minItems'] as number | undefined;
    const maxItems = schema['maxItems'] as number | undefined;
    if (minItems !== undefined && minItems > 0)
      variations.push(at('too few items', base.slice(0, minItems - 1)));
    if (maxItems !== undefined && base.length > 0) {
      variations.push(
        at(
          'too many items',
          Array.from({ length: maxItems + 1 }, (_, i) => base[i % base.length]),
        ),
      );
    }
    if (base.length > 0) variations.push(...bodyVariations(items, base[0], [...path, 0]));
  }
  return variations;
}

/** Values of a string or number that break one of its constraints (enum, length, pattern, bounds). */
function valueVariations(schema: Json): [string, unknown][] {
  const out: [string, unknown][] = [];
  const min = schema['minLength'] as number | undefined;
  const max = schema['maxLength'] as number | undefined;
  if (Array.isArray(schema['enum'])) {
    const values = schema['enum'] as unknown[];
    out.push(['outside the enum', typeof values[0] === 'number' ? -987654 : 'not_one_of_them']);
  }
  if (schema['type'] === 'string') {
    if (min !== undefined && min > 0) out.push(['too short', 'a'.repeat(min - 1)]);
    if (max !== undefined) out.push(['too long', 'a'.repeat(max + 1)]);
    const pattern = patternOf(schema);
    if (pattern !== undefined) {
      const wrong = notMatching(pattern, min ?? 0, max);
      if (wrong !== undefined) out.push(['not matching its pattern', wrong]);
    }
  }
  if (typeof schema['minimum'] === 'number') out.push(['below its minimum', schema['minimum'] - 1]);
  if (typeof schema['maximum'] === 'number') out.push(['above its maximum', schema['maximum'] + 1]);
  return out;
}

/** One variation per constraint of each query or path parameter (all strings on the wire). */
export function parameterVariations(parameters: Parameter[]): Variation[] {
  const variations: Variation[] = [];
  for (const parameter of parameters) {
    if (parameter.in !== 'query' && parameter.in !== 'path') continue;
    const where = parameter.in;
    for (const [what, value] of valueVariations(parameter.schema)) {
      // An empty path segment is another URL, not a value of the parameter.
      if (typeof value !== 'string' || (where === 'path' && value === '')) continue;
      variations.push({
        what: `${where} ${parameter.name}: ${what}`,
        apply: (parts) => ({ ...parts, [where]: { ...parts[where], [parameter.name]: value } }),
      });
    }
  }
  if (parameters.some((p) => p.in === 'query')) {
    variations.push({
      what: 'query: an unknown parameter',
      apply: (parts) => ({ ...parts, query: { ...parts.query, unexpected: '1' } }),
    });
  }
  return variations;
}

/** The URL of a request: the template filled in, the query appended. */
export function urlOf(operation: Operation, parts: RequestParts): string {
  const path = operation.path.replace(/\{([^}]+)\}/g, (_, name: string) =>
    encodeURIComponent(parts.path[name] ?? 'missing'),
  );
  const query = new URLSearchParams(parts.query).toString();
  return query === '' ? path : `${path}?${query}`;
}
