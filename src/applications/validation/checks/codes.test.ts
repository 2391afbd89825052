import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { defaultCodeTables } from '../../../codes/tables.ts';
import { checkCode, checkCodeList, checkOtherText } from './codes.ts';

const codes = defaultCodeTables();
const show = (list: readonly { field: string; error: string; params?: object }[]) =>
  list.map((p) => `${p.field}:${p.error}${p.params === undefined ? '' : ` ${JSON.stringify(p.params)}`}`);

describe('checkCode', () => {
  const cases: [string, string, 'country' | 'position' | 'profession', string[]][] = [
    ['country', 'CN', 'country', []],
    ['country', 'cn', 'country', ['country:codeUnknown {"value":"cn","table":"country"}']],
    ['country', 'XX', 'country', ['country:codeUnknown {"value":"XX","table":"country"}']],
    ['position', '04', 'position', []],
    ['position', '4', 'position', ['position:codeUnknown {"value":"4","table":"position"}']],
    ['profession', 'I', 'profession', []],
    ['profession', 'Z', 'profession', []],
    ['profession', 'U', 'profession', ['profession:codeUnknown {"value":"U","table":"profession"}']],
  ];
  for (const [field, value, table, expected] of cases) {
    test(`${field} ${value} -> ${expected.length === 0 ? 'ok' : 'codeUnknown'}`, () => {
      assert.deepEqual(show(checkCode(field, value, codes[table])), expected);
    });
  }
});

describe('checkCodeList', () => {
  const cases: [string, string[], string[]][] = [
    ['known codes', ['01', '04'], []],
    ['one unknown', ['01', '77'], ['purpose:codeUnknown {"value":"77","table":"purpose"}']],
    ['duplicate', ['01', '01'], ['purpose:fieldDuplicateItems']],
    [
      'duplicate unknown: reported once, and the duplicate',
      ['77', '77'],
      ['purpose:codeUnknown {"value":"77","table":"purpose"}', 'purpose:fieldDuplicateItems'],
    ],
  ];
  for (const [name, values, expected] of cases) {
    test(`${name}`, () => assert.deepEqual(show(checkCodeList('purpose', values, codes.purpose)), expected));
  }
});

describe('checkOtherText', () => {
  const cases: [string, string | undefined, string | string[], 'profession' | 'purpose', string[]][] = [
    ['other chosen, text given', '自由撰稿', 'Z', 'profession', []],
    [
      'other chosen, no text',
      undefined,
      'Z',
      'profession',
      ['profession_other:otherTextRequired {"source":"profession"}'],
    ],
    ['other not chosen, no text', undefined, 'I', 'profession', []],
    ['other not chosen, text given anyway', 'x', 'I', 'profession', []],
    [
      'other among several, no text',
      undefined,
      ['01', '99'],
      'purpose',
      ['purpose_other:otherTextRequired {"source":"purpose"}'],
    ],
    ['other among several, text', '捐赠', ['01', '99'], 'purpose', []],
    ['no other chosen', undefined, ['01', '02'], 'purpose', []],
  ];
  for (const [name, text, chosen, table, expected] of cases) {
    test(name, () =>
      assert.deepEqual(show(checkOtherText(`${table}_other`, text, chosen, table, codes[table])), expected),
    );
  }
});
