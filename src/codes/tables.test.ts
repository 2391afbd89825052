import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { DEFAULT_CODE_TABLES } from './defaultTables.ts';
import {
  buildCodeTables,
  CodeTablesError,
  defaultCodeTables,
  loadCodeTables,
  TABLE_NAMES,
} from './tables.ts';

describe('default tables', () => {
  const codes = defaultCodeTables();

  test('every table is there, indexed', () => {
    for (const name of TABLE_NAMES) {
      assert.equal(codes[name].name, name);
      assert.equal(codes[name].byCode.size, codes[name].entries.length);
      assert.deepEqual(codes.tables[name], codes[name].entries);
    }
    assert.equal(codes.source, 'default');
  });

  test('one "other" code per table except country', () => {
    assert.equal(codes.country.otherCode, undefined);
    assert.equal(codes.position.otherCode, '99');
    assert.equal(codes.profession.otherCode, 'Z');
    assert.equal(codes.purpose.otherCode, '99');
    assert.equal(codes.wealth_source.otherCode, '99');
  });

  test('countries: at least 40, with the ones the checks rely on', () => {
    assert.ok(codes.country.entries.length >= 40);
    for (const c of ['CN', 'HK', 'MO', 'TW', 'SG', 'US', 'GB', 'JP', 'KR', 'AU'])
      assert.ok(codes.country.byCode.has(c), c);
  });

  test('professions: the 20 sections A-T of GB/T 4754-2017 and Z', () => {
    assert.deepEqual(codes.profession.entries.map((e) => e.code).join(''), 'ABCDEFGHIJKLMNOPQRSTZ');
    assert.equal(codes.profession.byCode.get('A')?.name_zh, '农、林、牧、渔业');
    assert.equal(codes.profession.byCode.get('T')?.name_zh, '国际组织');
  });

  test('built once', () => assert.equal(defaultCodeTables(), codes));
});

describe('buildCodeTables', () => {
  const replace = (table: string, entries: unknown) => ({ ...DEFAULT_CODE_TABLES, [table]: entries });
  const cases: [string, unknown, RegExp][] = [
    ['not an object', [], /\(top level\): must be a JSON object/],
    ['unknown table', { ...DEFAULT_CODE_TABLES, colour: [] }, /colour: is not a table/],
    ['missing table', { country: DEFAULT_CODE_TABLES.country }, /position: is missing/],
    ['empty table', replace('purpose', []), /purpose: must be a non-empty array/],
    ['entry not an object', replace('purpose', ['01']), /purpose\[0\]: must be an object/],
    [
      'unknown member',
      replace('purpose', [{ code: '01', name: 'a', name_zh: 'a', colour: 1 }]),
      /purpose\[0\]\.colour: is not a known member/,
    ],
    [
      'bad code',
      replace('purpose', [{ code: '0 1', name: 'a', name_zh: 'a' }]),
      /purpose\[0\]\.code: must be 1-16/,
    ],
    [
      'bad country code',
      replace('country', [{ code: 'CHN', name: 'a', name_zh: 'a' }]),
      /country\[0\]\.code: must be an ISO 3166-1 alpha-2/,
    ],
    [
      'empty name',
      replace('purpose', [{ code: '01', name: ' ', name_zh: 'a' }]),
      /purpose\[0\]\.name: must be a non-empty string/,
    ],
    [
      'missing name_zh',
      replace('purpose', [{ code: '01', name: 'a' }]),
      /purpose\[0\]\.name_zh: must be a non-empty string/,
    ],
    [
      'other not boolean',
      replace('purpose', [{ code: '01', name: 'a', name_zh: 'a', other: 'yes' }]),
      /purpose\[0\]\.other: must be true or false/,
    ],
    [
      'duplicate code',
      replace('purpose', [
        { code: '01', name: 'a', name_zh: 'a' },
        { code: '01', name: 'b', name_zh: 'b' },
      ]),
      /purpose\[1\]\.code: duplicates code 01/,
    ],
    [
      'two other codes',
      replace('purpose', [
        { code: '98', name: 'a', name_zh: 'a', other: true },
        { code: '99', name: 'b', name_zh: 'b', other: true },
      ]),
      /purpose\[1\]\.other: only one code may mean "other" \(98 does\)/,
    ],
  ];
  for (const [name, input, message] of cases) {
    test(`${name} is refused with a message naming it`, () => {
      assert.throws(
        () => buildCodeTables(input, '/etc/codes.json'),
        (error: unknown) => {
          assert.ok(error instanceof CodeTablesError);
          assert.match(error.message, /^code tables file \/etc\/codes\.json: /);
          assert.match(error.message, message);
          return true;
        },
      );
    });
  }

  test('a table without an "other" code is allowed', () => {
    const codes = buildCodeTables(replace('purpose', [{ code: '01', name: 'Salary', name_zh: '工资' }]));
    assert.equal(codes.purpose.otherCode, undefined);
  });
});

describe('loadCodeTables', () => {
  const dir = mkdtempSync(join(tmpdir(), 'codes-'));
  const file = (name: string, text: string) => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  };

  test('no file: the defaults', () => {
    assert.equal(loadCodeTables(), defaultCodeTables());
    assert.equal(loadCodeTables(''), defaultCodeTables());
  });

  test('a file replaces the tables it holds and keeps the others', () => {
    const path = file(
      'ok.json',
      JSON.stringify({
        position: [
          { code: 'A1', name: 'Manager', name_zh: '经理' },
          { code: 'ZZ', name: 'Other', name_zh: '其他', other: true },
        ],
      }),
    );
    const codes = loadCodeTables(path);
    assert.equal(codes.source, path);
    assert.deepEqual([...codes.position.byCode.keys()], ['A1', 'ZZ']);
    assert.equal(codes.position.otherCode, 'ZZ');
    assert.equal(codes.country.byCode.has('CN'), true);
  });

  test('an unreadable file', () => {
    assert.throws(
      () => loadCodeTables(join(dir, 'missing.json')),
      /missing\.json: cannot be read \(ENOENT\)/,
    );
  });

  test('not JSON', () => {
    assert.throws(() => loadCodeTables(file('bad.json', '{"position": [')), /bad\.json: is not valid JSON/);
  });

  test('not an object', () => {
    assert.throws(
      () => loadCodeTables(file('array.json', '[]')),
      /array\.json: \(top level\): must be a JSON object/,
    );
  });

  test('a bad entry names the file and the entry', () => {
    const path = file(
      'dup.json',
      JSON.stringify({
        country: [
          { code: 'CN', name: 'China', name_zh: '中国' },
          { code: 'CN', name: 'x', name_zh: 'x' },
        ],
      }),
    );
    assert.throws(() => loadCodeTables(path), /dup\.json: country\[1\]\.code: duplicates code CN/);
  });
});
