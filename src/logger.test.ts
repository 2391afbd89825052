import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { describe, test } from 'node:test';
import { createLogger } from './logger.ts';
import { SECRET_KEYS, SENSITIVE_FIELDS } from './redaction.ts';

/** A logger writing into an array, one parsed object per line. */
function capture() {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n').filter(Boolean))
        lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  return { lines, logger: createLogger({ logLevel: 'info' }, sink) };
}

const VALUE = '11010519491231002X';

describe('log redaction, the second line of defence', () => {
  test('every sensitive field and secret key is censored at the top level and two levels down', () => {
    const { lines, logger } = capture();
    for (const key of [...SENSITIVE_FIELDS, ...SECRET_KEYS]) {
      logger.info({ [key]: VALUE, nested: { [key]: VALUE, deeper: { [key]: VALUE } } }, 'probe');
    }
    assert.equal(lines.length, SENSITIVE_FIELDS.length + SECRET_KEYS.length);
    for (const line of lines) {
      assert.doesNotMatch(JSON.stringify(line), new RegExp(VALUE));
      assert.match(JSON.stringify(line), /\[redacted\]/);
    }
  });

  test('inside arrays, errors and child bindings', () => {
    const { lines, logger } = capture();
    logger.info({ items: [{ mob_no: VALUE }, { cert_id: VALUE }] }, 'array');
    const error = Object.assign(new Error('refused'), { details: { card_no: VALUE } });
    logger.error({ err: error }, 'error');
    logger.child({ authorization: `Bearer ${VALUE}` }).info('child');
    assert.equal(lines.length, 3);
    for (const line of lines) assert.doesNotMatch(JSON.stringify(line), new RegExp(VALUE));
    // The error keeps what makes it useful.
    const err = lines[1]!['err'] as Record<string, unknown>;
    assert.equal(err['message'], 'refused');
    assert.match(String(err['stack']), /Error: refused/);
  });

  test('the object logged is not changed, and harmless fields pass as they are', () => {
    const { lines, logger } = capture();
    const object = { status: 200, route: '/x', partner: { app_id: 'app_1', token: VALUE } };
    logger.info(object, 'request');
    assert.equal(object.partner.token, VALUE);
    assert.deepEqual(lines[0]!['partner'], { app_id: 'app_1', token: '[redacted]' });
    assert.equal(lines[0]!['status'], 200);
    assert.equal(lines[0]!['route'], '/x');
  });
});
