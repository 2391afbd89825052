import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { readJsonObject, type JsonBodyResult } from './jsonBody.ts';

const read = (text: string, maxDepth?: number) =>
  readJsonObject(Buffer.from(text, 'utf8'), maxDepth === undefined ? undefined : { maxDepth });

const fail = (error: string, extra: { field?: string; max?: number } = {}) => ({
  ok: false,
  error,
  ...extra,
});

// ---------------------------------------------------------------------------------------------
// A slow, independent reference: a recursive-descent walk over text that JSON.parse accepted,
// reporting the first problem in document order, with the same path notation.

const FORBIDDEN = ['__proto__', 'constructor', 'prototype'];

function keySegment(key: string, first: boolean): string {
  if (/^[A-Za-z0-9_$-]+$/.test(key) && key.length <= 64) return first ? key : `.${key}`;
  return `[${JSON.stringify(key.length <= 64 ? key : `${key.slice(0, 64)}...`)}]`;
}

class Found extends Error {
  readonly result: JsonBodyResult;
  constructor(result: JsonBodyResult) {
    super('found');
    this.result = result;
  }
}

function reference(text: string, maxDepth = 32): JsonBodyResult {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch {
    return fail(/^\uFEFF?[ \t\n\r]*$/.test(text) ? 'bodyEmpty' : 'bodyNotJson') as JsonBodyResult;
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    return { ok: false, error: 'bodyNotObject' };
  }
  const s = text.replace(/^\uFEFF/, '');
  let i = 0;
  const ws = () => {
    while (' \t\n\r'.includes(s[i] ?? 'x')) i++;
  };
  const str = (): { text: string; escaped: boolean } => {
    i++; // opening quote
    let out = '';
    let escaped = false;
    for (;;) {
      const c = s[i++]!;
      if (c === '"') break;
      if (c !== '\\') {
        out += c;
        continue;
      }
      escaped = true;
      const e = s[i++]!;
      if (e === 'u') {
        out += String.fromCharCode(parseInt(s.slice(i, i + 4), 16));
        i += 4;
      } else out += { b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' }[e] ?? e;
    }
    if (!out.isWellFormed()) throw new Found({ ok: false, error: 'bodyBadEncoding' });
    return { text: out, escaped };
  };
  // Builds the value itself: JSON.parse cannot be the oracle (see the V8 key bug below).
  const value = (depth: number, path: string): unknown => {
    ws();
    const c = s[i];
    if (c === '{' || c === '[') {
      if (depth + 1 > maxDepth) throw new Found({ ok: false, error: 'bodyTooDeep', max: maxDepth });
      i++;
      ws();
      const close = c === '{' ? '}' : ']';
      const obj: Record<string, unknown> = {};
      const arr: unknown[] = [];
      if (s[i] === close) {
        i++;
        return c === '{' ? obj : arr;
      }
      const keys = new Set<string>();
      for (let n = 0; ; n++) {
        ws();
        if (c === '{') {
          const { text: key, escaped } = str();
          const field = path + keySegment(key, path === '');
          if (
            FORBIDDEN.includes(key) ||
            (escaped && [...key].some((ch) => ch < ' ' || ch === '"' || ch === '\\'))
          ) {
            throw new Found({ ok: false, error: 'bodyForbiddenKey', field });
          }
          if (keys.has(key)) throw new Found({ ok: false, error: 'bodyDuplicateKey', field });
          keys.add(key);
          ws();
          i++; // colon
          obj[key] = value(depth + 1, field);
        } else {
          arr.push(value(depth + 1, `${path}[${n}]`));
        }
        ws();
        if (s[i++] === close) return c === '{' ? obj : arr;
      }
    }
    if (c === '"') return str().text;
    const start = i;
    while (i < s.length && !',]} \t\n\r'.includes(s[i]!)) i++;
    const literal = s.slice(start, i);
    return literal === 'true'
      ? true
      : literal === 'false'
        ? false
        : literal === 'null'
          ? null
          : Number(literal);
  };
  try {
    return { ok: true, value: value(0, '') as Record<string, unknown> };
  } catch (e) {
    if (e instanceof Found) return e.result;
    throw e;
  }
}

function agrees(text: string, maxDepth?: number): void {
  assert.deepEqual(read(text, maxDepth), reference(text, maxDepth), text);
}

// ---------------------------------------------------------------------------------------------

describe('readJsonObject: table', () => {
  const cases: [string, string | Buffer, object, number?][] = [
    ['empty', '', fail('bodyEmpty')],
    ['whitespace only', ' \t\r\n ', fail('bodyEmpty')],
    ['a BOM only', '\uFEFF', fail('bodyEmpty')],
    ['a BOM and whitespace', '\uFEFF \n', fail('bodyEmpty')],
    [
      'invalid UTF-8',
      Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d]),
      fail('bodyBadEncoding'),
    ],
    ['overlong UTF-8', Buffer.from('{"a":"\xC0\xAF"}', 'latin1'), fail('bodyBadEncoding')],
    ['a surrogate in UTF-8', Buffer.from('{"a":"\xED\xA0\x80"}', 'latin1'), fail('bodyBadEncoding')],
    ['truncated UTF-8', Buffer.from('{"a":"\xE4\xB8"}', 'latin1'), fail('bodyBadEncoding')],
    ['a lone high surrogate escape', '{"a":"\\ud800"}', fail('bodyBadEncoding')],
    ['a lone low surrogate escape', '{"a":["x","\\uDC00y"]}', fail('bodyBadEncoding')],
    ['a lone surrogate escape in a key', '{"\\ud800":1}', fail('bodyBadEncoding')],
    ['a reversed surrogate pair', '{"a":"\\ude00\\ud83d"}', fail('bodyBadEncoding')],
    ['not JSON', '{a:1}', fail('bodyNotJson')],
    ['trailing comma', '{"a":1,}', fail('bodyNotJson')],
    ['comment', '{"a":1 /* c */}', fail('bodyNotJson')],
    ['two values', '{"a":1}{"b":2}', fail('bodyNotJson')],
    ['single quotes', "{'a':1}", fail('bodyNotJson')],
    ['NaN', '{"a":NaN}', fail('bodyNotJson')],
    ['a BOM inside', '{"a":1}\uFEFF', fail('bodyNotJson')],
    ['an array', '[{"a":1}]', fail('bodyNotObject')],
    ['a string', '"{}"', fail('bodyNotObject')],
    ['a number', '42', fail('bodyNotObject')],
    ['null', 'null', fail('bodyNotObject')],
    ['true', 'true', fail('bodyNotObject')],
    ['duplicate top-level key', '{"name":"a","x":1,"name":"b"}', fail('bodyDuplicateKey', { field: 'name' })],
    ['duplicate after unescaping', '{"a":1,"\\u0061":2}', fail('bodyDuplicateKey', { field: 'a' })],
    ['a key with a quote', '{"a\\"":1}', fail('bodyForbiddenKey', { field: '["a\\""]' })],
    ['a key with a backslash', '{"x":{"\\\\":1}}', fail('bodyForbiddenKey', { field: 'x["\\\\"]' })],
    ['a key with a control character', '{"a\\n":1}', fail('bodyForbiddenKey', { field: '["a\\n"]' })],
    ['a key with an escaped NUL', '{"a\\u0000":1}', fail('bodyForbiddenKey', { field: '["a\\u0000"]' })],
    [
      'duplicate nested in an array',
      '{"other_field":[{"name":"n","value":"v","field":"f"},{"name":"n","value":"v","value":"w"}]}',
      fail('bodyDuplicateKey', { field: 'other_field[1].value' }),
    ],
    ['duplicate deep', '{"a":{"b":[[1,{"c":1,"c":2}]]}}', fail('bodyDuplicateKey', { field: 'a.b[0][1].c' })],
    ['duplicate odd key', '{"x.y":1,"x.y":2}', fail('bodyDuplicateKey', { field: '["x.y"]' })],
    ['duplicate empty key', '{"":1,"":2}', fail('bodyDuplicateKey', { field: '[""]' })],
    ['__proto__', '{"__proto__":{"admin":true}}', fail('bodyForbiddenKey', { field: '__proto__' })],
    ['escaped __proto__', '{"\\u005f_proto__":1}', fail('bodyForbiddenKey', { field: '__proto__' })],
    [
      'constructor nested',
      '{"a":[{"constructor":{}}]}',
      fail('bodyForbiddenKey', { field: 'a[0].constructor' }),
    ],
    ['prototype nested', '{"a":{"b":{"prototype":1}}}', fail('bodyForbiddenKey', { field: 'a.b.prototype' })],
    ['too deep', '{"a":' + '['.repeat(32) + ']'.repeat(32) + '}', fail('bodyTooDeep', { max: 32 })],
    ['too deep for the option', '{"a":{"b":{}}}', fail('bodyTooDeep', { max: 2 }), 2],
    ['first problem wins', '{"a":1,"a":2,"__proto__":1}', fail('bodyDuplicateKey', { field: 'a' })],
    [
      'first problem wins (2)',
      '{"b":{"__proto__":1},"a":1,"a":2}',
      fail('bodyForbiddenKey', { field: 'b.__proto__' }),
    ],
  ];
  for (const [name, body, expected, maxDepth] of cases) {
    test(name, () => {
      const buffer = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
      assert.deepEqual(readJsonObject(buffer, maxDepth === undefined ? undefined : { maxDepth }), expected);
    });
  }
});

describe('readJsonObject: accepts', () => {
  test('a plain object', () => {
    assert.deepEqual(read('{"a":1,"b":[1,2,{"c":null}],"d":"x"}'), {
      ok: true,
      value: { a: 1, b: [1, 2, { c: null }], d: 'x' },
    });
  });

  test('a leading BOM is skipped', () => {
    assert.deepEqual(read('\uFEFF{"a":1}'), { ok: true, value: { a: 1 } });
  });

  test('structural characters and escapes inside strings', () => {
    const value = { a: '{[,]}:"', b: '\\', c: '\\"}', d: '"', e: '\u00e9\ud83d\ude00', f: '', g: '\n\u0000' };
    assert.deepEqual(read(JSON.stringify(value)), { ok: true, value });
    assert.deepEqual(read('{"\\u0061b":1,"\\u4e2d":{"\\/":2}}'), {
      ok: true,
      value: { ab: 1, 中: { '/': 2 } },
    });
    assert.deepEqual(read('{"s":"\\ud83d\\ude00"}'), { ok: true, value: { s: '\ud83d\ude00' } });
  });

  test('the same key in different objects, and keys that merely contain forbidden words', () => {
    const value = { a: { x: 1 }, b: { x: 1 }, c: [{ x: 1 }, { x: 2 }], __proto: 1, constructors: 2 };
    assert.deepEqual(read(JSON.stringify(value)), { ok: true, value });
  });

  test('exactly maxDepth levels', () => {
    const text = '{"a":' + '['.repeat(31) + ']'.repeat(31) + '}';
    assert.equal(read(text).ok, true);
    assert.equal(read('{}', 1).ok, true);
    assert.deepEqual(read('{"a":[]}', 1), fail('bodyTooDeep', { max: 1 }));
  });

  test('refuses a bad maxDepth option', () => {
    assert.throws(() => read('{}', 0));
    assert.throws(() => read('{}', 1.5));
  });

  test('a very deep body does not overflow the stack', () => {
    const n = 100_000;
    assert.deepEqual(read('{"a":' + '['.repeat(n) + ']'.repeat(n) + '}'), fail('bodyTooDeep', { max: 32 }));
  });

  test('escaped keys are read right after V8 has seen a key with a backslash (nodejs/node#63785)', () => {
    // On Node 24, JSON.parse('{"x":1,"\\\\":2}') makes a later JSON.parse('{"x":1,"\\u0061":2}') return
    // the key "\\" instead of "a". The reader must not be fooled, whatever ran before it.
    for (const poison of ['{"x":1,"\\\\":2}', '{"x":1,"a":1,"\\\\":2}', '{"\\\\":0}', '{"x":1,"a\\\\":2}']) {
      JSON.parse(poison);
      read(poison);
    }
    assert.deepEqual(read('{"x":1,"\\u0061":2}'), { ok: true, value: { x: 1, a: 2 } });
    assert.deepEqual(read('{"\\u0061":2}'), { ok: true, value: { a: 2 } });
    assert.deepEqual(read('{"x":1,"a\\u0062":2}'), { ok: true, value: { x: 1, ab: 2 } });
    assert.deepEqual(read('{"x":1,"a":1,"\\u0061":2}'), fail('bodyDuplicateKey', { field: 'a' }));
    assert.deepEqual(read('{"x":1,"\\n":2}'), fail('bodyForbiddenKey', { field: '["\\n"]' }));
  });

  test('a long key in a path is shortened', () => {
    const key = 'k.'.repeat(100);
    const r = read(`{"${key}":1,"${key}":2}`);
    assert.equal(r.ok, false);
    assert.equal(!r.ok && r.field, JSON.stringify(key.slice(0, 64) + '...').replace(/^/, '[') + ']');
  });
});

// ---------------------------------------------------------------------------------------------

/** Text of a JSON value in which `dup` (a path of object nodes, in walk order) repeats one key. */
function serializeWithDuplicate(
  value: unknown,
  target: number,
  keyPick: number,
  escape: boolean,
): { text: string; field: string | undefined } {
  let counter = 0;
  let field: string | undefined;
  const walk = (v: unknown, path: string): string => {
    if (Array.isArray(v)) return `[${v.map((x, i) => walk(x, `${path}[${i}]`)).join(',')}]`;
    if (v !== null && typeof v === 'object') {
      const entries = Object.entries(v);
      const parts = entries.map(
        ([k, x]) => `${JSON.stringify(k)}:${walk(x, path + keySegment(k, path === ''))}`,
      );
      if (entries.length > 0 && counter++ === target) {
        const [k, x] = entries[keyPick % entries.length]!;
        const written = escape
          ? `"${[...k].map((ch) => [...ch].map((u) => '\\u' + u.charCodeAt(0).toString(16).padStart(4, '0')).join('')).join('')}"`
          : JSON.stringify(k);
        parts.push(`${written}:${JSON.stringify(x)}`);
        field = path + keySegment(k, path === '');
      }
      return `{${parts.join(',')}}`;
    }
    return JSON.stringify(v);
  };
  return { text: walk(value, ''), field };
}

const safeObject = fc
  .jsonValue({ maxDepth: 5 })
  .filter((v) => v !== null && typeof v === 'object' && !Array.isArray(v))
  .map((v) => v as Record<string, unknown>)
  .filter((v) => read(JSON.stringify(v)).ok);

/** Valid JSON text made from a few keys and strings, so that duplicates and odd escapes are common. */
const tokenyJson = fc.letrec<{ value: string; object: string }>((tie) => {
  const keys = fc.constantFrom(
    '"a"',
    '"\\u0061"',
    '"b"',
    '"a\\""',
    '"\\\\"',
    '"__proto__"',
    '"\\u005f_proto__"',
    '"constructor"',
    '"prototype"',
    '"x.y"',
    '""',
    '"\\ud800"',
    '"\\ud83d\\ude00"',
    '"0"',
  );
  const scalars = fc.constantFrom(
    '1',
    '-0.5e3',
    'true',
    'null',
    '"s"',
    '"{[,]}:"',
    '"\\"}"',
    '"\\udfff"',
    '"\\\\"',
  );
  return {
    value: fc.oneof(
      { depthSize: 'small' },
      scalars,
      tie('object'),
      fc.array(tie('value'), { maxLength: 4 }).map((xs) => `[${xs.join(' , ')}]`),
    ),
    object: fc
      .array(fc.tuple(keys, tie('value')), { maxLength: 4 })
      .map((kvs) => `{ ${kvs.map(([k, v]) => `${k}:${v}`).join(',')}}`),
  };
}).object;

describe('readJsonObject: properties', () => {
  test('agrees with JSON.parse and the reference on any JSON value', () => {
    fc.assert(
      fc.property(
        fc.jsonValue(),
        fc.option(fc.integer({ min: 1, max: 6 }), { nil: undefined }),
        (v, maxDepth) => {
          const text = JSON.stringify(v);
          const r = read(text, maxDepth);
          assert.deepEqual(r, reference(text, maxDepth));
          if (r.ok) assert.deepEqual(r.value, JSON.parse(text));
        },
      ),
      { numRuns: 500 },
    );
  });

  test('agrees with the reference on unicode strings, lone surrogates included', () => {
    fc.assert(
      fc.property(fc.jsonValue({ stringUnit: 'binary', maxDepth: 4 }), (v) => agrees(JSON.stringify(v))),
      { numRuns: 500 },
    );
  });

  test('agrees with the reference on objects with frequent duplicates and odd keys', () => {
    fc.assert(
      fc.property(tokenyJson, fc.integer({ min: 1, max: 5 }), (text, maxDepth) => {
        agrees(text);
        agrees(text, maxDepth);
      }),
      { numRuns: 2000 },
    );
  });

  test('a key repeated in any object at any depth is found, escaped or not', () => {
    fc.assert(
      fc.property(safeObject, fc.nat(), fc.nat(), fc.boolean(), (v, target, keyPick, escape) => {
        let objects = 0;
        const count = (x: unknown): void => {
          if (Array.isArray(x)) x.forEach(count);
          else if (x !== null && typeof x === 'object') {
            if (Object.keys(x).length > 0) objects++;
            Object.values(x).forEach(count);
          }
        };
        count(v);
        fc.pre(objects > 0);
        const { text, field } = serializeWithDuplicate(v, target % objects, keyPick, escape);
        assert.deepEqual(read(text), { ok: false, error: 'bodyDuplicateKey', field });
      }),
      { numRuns: 1000 },
    );
  });

  test('random bytes never throw', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (bytes) => {
        const r = readJsonObject(Buffer.from(bytes));
        assert.equal(typeof r.ok, 'boolean');
      }),
      { numRuns: 2000 },
    );
  });

  test('random JSON-ish text never throws and agrees with the reference', () => {
    const piece = fc.constantFrom(
      '{',
      '}',
      '[',
      ']',
      ',',
      ':',
      '"',
      '\\',
      '"a"',
      '"\\u0061"',
      '1',
      ' ',
      'null',
      '"__proto__"',
      '\\ud800',
      '\uFEFF',
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 40 }), (pieces) => agrees(pieces.join(''))),
      { numRuns: 3000 },
    );
  });
});
