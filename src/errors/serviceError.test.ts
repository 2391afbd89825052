import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ServiceError, ValidationError } from './serviceError.ts';

/**
 * An expected failure is rendered, never traced, so it captures no stack (the capture was 8% of the
 * event loop under a refused flood); a fault still does, and the process's limit is left as it was.
 */
test('expected failures carry no stack frames, faults still do', () => {
  const before = Error.stackTraceLimit;
  const refused = new ServiceError('rateLimited');
  const invalid = new ValidationError([]);
  assert.equal(Error.stackTraceLimit, before, 'the limit is restored');
  for (const error of [refused, invalid]) {
    assert.ok(error instanceof Error);
    assert.doesNotMatch(error.stack ?? '', /\n\s+at /, `${error.name} has no frames`);
  }
  assert.match(refused.stack ?? '', /^ServiceError: rateLimited/);
  assert.match(new Error('fault').stack ?? '', /\n\s+at /, 'a plain Error keeps its frames');
});
