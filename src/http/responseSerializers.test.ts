import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Type } from 'typebox';
import { responseSerializers } from './responseSerializers.ts';

const view = () => Type.Object({ code: Type.Integer(), data: Type.Object({ busi_water_no: Type.String() }) });

test('routes answering with the same schema share one serialiser; successes drop unnamed fields', () => {
  const compile = responseSerializers();
  // Two routes build their schema each: equal content, distinct objects.
  const first = compile({ schema: view(), httpStatus: '200' });
  const second = compile({ schema: view(), httpStatus: '200' });
  assert.equal(first, second, 'one serialiser for one schema');
  const other = compile({ schema: Type.Object({ code: Type.Integer() }), httpStatus: '200' });
  assert.notEqual(other, first);
  const written = JSON.parse(first({ code: 0, data: { busi_water_no: 'A1', cert_id: 'leak' }, extra: 1 }));
  assert.deepEqual(written, { code: 0, data: { busi_water_no: 'A1' } });
});

test('errors are written as the error handler built them', () => {
  const compile = responseSerializers();
  const serialize = compile({ schema: view(), httpStatus: '409' });
  const envelope = { code: 40901, data: { busi_water_no: 'A1', app_id: 'x' }, msg: 'duplicate' };
  assert.deepEqual(JSON.parse(serialize(envelope)), envelope);
});
