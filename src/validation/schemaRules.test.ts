import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Type, type TSchema } from 'typebox';
import { ERRORS } from '../errors/catalogue.ts';
import { compileValidator, schemaRules } from './schemaValidator.ts';

/**
 * `schemaRules` (what a route documents) and the validator (what it answers) agree: for each
 * keyword, a value that breaks it is reported with a rule that `schemaRules` lists for the schema.
 */
const cases: [string, TSchema, unknown][] = [
  ['required', Type.Object({ a: Type.String() }), {}],
  ['additionalProperties', Type.Object({}, { additionalProperties: false }), { b: 1 }],
  ['type', Type.Object({ a: Type.Integer() }), { a: 'x' }],
  ['minLength', Type.Object({ a: Type.String({ minLength: 1 }) }), { a: '' }],
  ['maxLength', Type.Object({ a: Type.String({ maxLength: 2 }) }), { a: 'abc' }],
  ['minItems', Type.Object({ a: Type.Array(Type.String(), { minItems: 1 }) }), { a: [] }],
  ['maxItems', Type.Object({ a: Type.Array(Type.String(), { maxItems: 1 }) }), { a: ['x', 'y'] }],
  ['enum', Type.Object({ a: Type.Enum(['x', 'y']) }), { a: 'z' }],
  ['pattern', Type.Object({ a: Type.String({ pattern: '^[0-9]+$' }) }), { a: 'x' }],
  ['date pattern', Type.Object({ a: Type.String({ pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$' }) }), { a: '1' }],
  ['minimum', Type.Object({ a: Type.Integer({ minimum: 1 }) }), { a: 0 }],
  ['maximum', Type.Object({ a: Type.Integer({ maximum: 1 }) }), { a: 2 }],
  ['const', Type.Object({ a: Type.Literal('x') }), { a: 'y' }],
  ['union', Type.Object({ a: Type.Union([Type.String(), Type.Null()]) }), { a: 1 }],
  [
    'nested',
    Type.Object({ a: Type.Array(Type.Object({ b: Type.String({ maxLength: 1 }) })) }),
    { a: [{ b: 'xy' }] },
  ],
];

for (const [keyword, schema, value] of cases) {
  test(`a broken ${keyword} is answered with a rule the schema documents`, () => {
    const result = compileValidator(schema)(value);
    assert.equal(result.ok, false);
    const documented = schemaRules(schema);
    for (const problem of result.ok ? [] : result.problems) {
      assert.ok(
        documented.has(problem.error),
        `${problem.field} ${ERRORS[problem.error].code} not in ${[...documented].join(', ')}`,
      );
    }
  });
}
