import { Ajv, type ErrorObject } from 'ajv';
import type { TSchema, Static } from 'typebox';
import type { ErrorName } from '../errors/catalogue.ts';
import { problem, type FieldProblem } from '../errors/problems.ts';
import { keySegment } from './fieldPath.ts';

/**
 * Compiles a TypeBox schema into a validator that reports every problem at once, one per field,
 * each as a catalogue rule naming the field. Types are never coerced and strings never trimmed:
 * what was sent is what is checked.
 */
export type SchemaResult<T> =
  { ok: true; value: T } | { ok: false; problems: FieldProblem[]; invalidFields: Set<string> };

const ajv = new Ajv({ allErrors: true, strict: false, coerceTypes: false, useDefaults: false });

const DATE_PATTERN = '^[0-9]{4}-[0-9]{2}-[0-9]{2}$';

const TYPE_NAMES: Record<string, [en: string, zh: string]> = {
  string: ['a string', '字符串'],
  integer: ['an integer', '整数'],
  number: ['a number', '数字'],
  array: ['an array', '数组'],
  object: ['an object', '对象'],
  boolean: ['true or false', '布尔值'],
  null: ['null', 'null'],
};

/**
 * `/other_field/0/name` -> `other_field[0].name`. `child` is a property name (a missing or unknown
 * key): any key that is not a plain word is quoted and shortened as the JSON body reader does
 * (`["a.b"]`), so that a sent key never reads as another field's path nor comes back at length.
 */
export function fieldPath(instancePath: string, child?: string): string {
  let path = '';
  for (const raw of instancePath.split('/').slice(1)) {
    const part = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    path += /^[0-9]+$/.test(part) ? `[${part}]` : keySegment(part, path === '');
  }
  if (child !== undefined) path += keySegment(child, path === '');
  return path === '' ? 'body' : path;
}

function toProblem(error: ErrorObject): FieldProblem | undefined {
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return problem(fieldPath(error.instancePath, String(params['missingProperty'])), 'fieldRequired');
    case 'additionalProperties':
      return problem(fieldPath(error.instancePath, String(params['additionalProperty'])), 'fieldUnknown');
    case 'type': {
      const [en, zh] = TYPE_NAMES[String(params['type'])] ?? [String(params['type']), String(params['type'])];
      return problem(fieldPath(error.instancePath), 'fieldType', { expected: en, expected_zh: zh });
    }
    case 'minLength':
    case 'minItems':
      return problem(fieldPath(error.instancePath), 'fieldEmpty');
    case 'maxLength':
      return problem(fieldPath(error.instancePath), 'fieldTooLong', { max: Number(params['limit']) });
    case 'maxItems':
      return problem(fieldPath(error.instancePath), 'fieldTooManyItems', { max: Number(params['limit']) });
    case 'enum':
      return problem(fieldPath(error.instancePath), 'fieldNotAllowed', {
        allowed: (params['allowedValues'] as unknown[]).join(', '),
      });
    case 'pattern': {
      const field = fieldPath(error.instancePath);
      if (params['pattern'] === DATE_PATTERN) return problem(field, 'dateInvalid');
      return problem(field, 'fieldFormat', { rule: 'has an invalid format', rule_zh: '格式不正确' });
    }
    case 'minimum':
    case 'maximum':
      return problem(fieldPath(error.instancePath), 'fieldFormat', {
        rule: `must be ${error.keyword === 'minimum' ? 'at least' : 'at most'} ${String(params['limit'])}`,
        rule_zh: `${error.keyword === 'minimum' ? '不能小于' : '不能大于'} ${String(params['limit'])}`,
      });
    default:
      return problem(fieldPath(error.instancePath), 'fieldFormat', { rule: 'is invalid', rule_zh: '不合法' });
  }
}

/**
 * Every catalogue rule a schema can be reported as, keyword by keyword as `toProblem` reports them:
 * what a route's documented errors are derived from (http/routeErrors.ts), so that a new length
 * limit or enum on a route is documented by the same change.
 */
export function schemaRules(schema: unknown, rules = new Set<ErrorName>()): Set<ErrorName> {
  if (typeof schema !== 'object' || schema === null) return rules;
  const node = schema as Record<string, unknown>;
  for (const [keyword, value] of Object.entries(node)) {
    const rule = KEYWORD_RULES[keyword];
    if (rule !== undefined) rules.add(rule);
    else if (keyword === 'required' && Array.isArray(value) && value.length > 0) rules.add('fieldRequired');
    else if (keyword === 'additionalProperties' && value === false) rules.add('fieldUnknown');
    else if (keyword === 'pattern') rules.add(value === DATE_PATTERN ? 'dateInvalid' : 'fieldFormat');
    else if (VALIDATING_KEYWORDS.has(keyword)) rules.add('fieldFormat');
  }
  for (const key of ['properties', 'patternProperties', '$defs']) {
    for (const child of Object.values((node[key] as Record<string, unknown> | undefined) ?? {})) {
      schemaRules(child, rules);
    }
  }
  for (const key of ['items', 'additionalProperties', 'not', 'contains']) schemaRules(node[key], rules);
  for (const key of ['anyOf', 'oneOf', 'allOf', 'prefixItems']) {
    for (const child of (node[key] as unknown[] | undefined) ?? []) schemaRules(child, rules);
  }
  return rules;
}

const KEYWORD_RULES: Record<string, ErrorName> = {
  type: 'fieldType',
  minLength: 'fieldEmpty',
  minItems: 'fieldEmpty',
  maxLength: 'fieldTooLong',
  maxItems: 'fieldTooManyItems',
  enum: 'fieldNotAllowed',
  minimum: 'fieldFormat',
  maximum: 'fieldFormat',
};
/** Keywords that `toProblem` reports by its default branch. */
const VALIDATING_KEYWORDS = new Set([
  'const',
  'format',
  'uniqueItems',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minProperties',
  'maxProperties',
  'anyOf',
  'oneOf',
  'not',
  'contains',
  'dependentRequired',
]);

/** The top-level field a path belongs to: `other_field[0].name` -> `other_field`. */
export function topField(path: string): string {
  const match = /^[^.[]+/.exec(path);
  return match === null ? path : match[0];
}

export function compileValidator<S extends TSchema>(schema: S): (value: unknown) => SchemaResult<Static<S>> {
  const validate = ajv.compile(schema as object);
  const order = new Map(
    Object.keys((schema as { properties?: object }).properties ?? {}).map((k, i) => [k, i]),
  );
  return (value) => {
    if (validate(value)) return { ok: true, value: value as Static<S> };
    const problems: FieldProblem[] = [];
    const seen = new Set<string>();
    for (const error of validate.errors ?? []) {
      const found = toProblem(error);
      if (found === undefined || seen.has(found.field)) continue;
      seen.add(found.field);
      problems.push(found);
    }
    const rank = (p: FieldProblem) => order.get(topField(p.field)) ?? order.size;
    problems.sort((a, b) => rank(a) - rank(b));
    return { ok: false, problems, invalidFields: new Set(problems.map((p) => topField(p.field))) };
  };
}
