import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { canonicalJson, requestHash } from './canonicalJson.ts';

describe('canonicalJson', () => {
  test('sorts keys at every level and keeps arrays in order', () => {
    assert.equal(canonicalJson({ b: 1, a: [{ d: 2, c: null }, 'x'] }), '{"a":[{"c":null,"d":2},"x"],"b":1}');
  });

  test('is JSON that parses back to the same value, whatever the key order', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const text = canonicalJson(value);
        assert.deepEqual(JSON.parse(text), JSON.parse(JSON.stringify(value)));
        const shuffled = JSON.parse(JSON.stringify(value), (_key, v: unknown) =>
          v !== null && typeof v === 'object' && !Array.isArray(v)
            ? Object.fromEntries(Object.entries(v).reverse())
            : v,
        ) as unknown;
        assert.equal(canonicalJson(shuffled), text);
      }),
    );
  });
});

describe('requestHash', () => {
  test('ignores the timestamp and the key order, not the content or the operation', () => {
    const body = { app_id: 'a', timestamp: 1, name: 'x' };
    assert.equal(requestHash('op', body), requestHash('op', { name: 'x', timestamp: 2, app_id: 'a' }));
    assert.notEqual(requestHash('op', body), requestHash('op', { ...body, name: 'y' }));
    assert.notEqual(requestHash('op', body), requestHash('other', body));
    assert.match(requestHash('op', body), /^[0-9a-f]{64}$/);
  });

  test('is the stored form every release wrote: SHA-256 of the operation, a newline, the canonical body', () => {
    // From coreutils, not Node: printf 'application.submit\n{"a":"x","b":2}' | sha256sum. Records
    // written by an earlier release replay only while this stays the same (a rolling deploy).
    assert.equal(
      requestHash('application.submit', { timestamp: 1, b: 2, a: 'x' }),
      'd3f78b30ae2a4762f31fd03f7bf78c4ed54dd9964570f8c245330c7dbc92b851',
    );
  });
});
