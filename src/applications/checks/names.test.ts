import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  checkNames,
  isChineseName,
  isPinyinOf,
  matchesSyllables,
  readNames,
  type NameInput,
} from './names.ts';

describe('isChineseName', () => {
  const cases: [string, boolean][] = [
    ['李雷', true],
    ['欧阳晓明', true],
    ['阿依古丽·买买提', true],
    ['阿依古丽・买买提', true],
    ['阿依古丽•买买提', true], // the bullet an input method types for the middle dot
    ['阿依古丽‧买买提', true],
    ['阿依古丽･买买提', true],
    ['䶮', true], // extension A
    ['李𠇔', true], // extension B
    ['李 雷', false],
    ['李雷·', false],
    ['·李雷', false],
    ['李··雷', false],
    ['Li Lei', false],
    ['李雷1', false],
    ['李雷\u200B', false],
    ['키미', false],
  ];
  for (const [name, expected] of cases)
    test(`${name} -> ${expected}`, () => assert.equal(isChineseName(name), expected));
});

describe('isPinyinOf', () => {
  const cases: [string, string, boolean][] = [
    ['李雷', 'LI LEI', true],
    ['李雷', 'LILEI', true],
    ['李雷', 'LIL EI', false],
    ['李雷', 'LEI LI', false],
    ['李雷', 'LI LEI LEI', false],
    ['李雷', 'LI', false],
    ['李雷', 'LI  LEI', true], // spacing is free at syllable boundaries
    ['李雷', 'li lei', false],
    ['王小明', 'WANG XIAOMING', true],
    ['王小明', 'WANG XIAO MING', true],
    ['王小明', 'WANGXIAOMING', true],
    // surnames read as surnames, and their general readings
    ['曾国藩', 'ZENG GUOFAN', true],
    ['曾国藩', 'CENG GUOFAN', true],
    ['单雄信', 'SHAN XIONGXIN', true],
    ['解缙', 'XIE JIN', true],
    ['仇英', 'QIU YING', true],
    ['区志强', 'OU ZHIQIANG', true],
    ['朴树', 'PIAO SHU', true],
    ['查良镛', 'ZHA LIANGYONG', true],
    ['尉迟恭', 'YUCHI GONG', true],
    ['万俟卨', 'MOQI XIE', true],
    ['欧阳修', 'OUYANG XIU', true],
    // any reading of a polyphonic character
    ['张行', 'ZHANG XING', true],
    ['张行', 'ZHANG HANG', true],
    ['李乐', 'LI YUE', true],
    ['李乐', 'LI LE', true],
    // ü as YU, V or U
    ['吕布', 'LYU BU', true],
    ['吕布', 'LV BU', true],
    ['吕布', 'LU BU', true],
    ['吕布', 'LÜ BU', false],
    // middle dot as a space or nothing
    ['阿依古丽·买买提', 'AYIGULI MAIMAITI', true],
    ['阿依古丽·买买提', 'AYIGULIMAIMAITI', true],
    // a character pinyin-pro cannot read is any one syllable
    ['李𠇔', 'LI XYZ', true],
    ['李𠇔', 'LI', false],
  ];
  for (const [name, nameEn, expected] of cases) {
    test(`${name} / ${nameEn} -> ${expected}`, () => assert.equal(isPinyinOf(name, nameEn), expected));
  }
});

describe('matchesSyllables', () => {
  test('a 64-character name is matched quickly', () => {
    const syllables = Array.from({ length: 64 }, () => ['A', 'AN', 'ANG']);
    const started = performance.now();
    assert.equal(matchesSyllables('AN'.repeat(64), syllables), true);
    assert.equal(matchesSyllables(`${'ANG'.repeat(63)}B`, syllables), false);
    assert.ok(performance.now() - started < 50);
  });
});

describe('checkNames', () => {
  const input = (over: Partial<NameInput>): NameInput =>
    readNames({ country: 'CN', name: '李雷', name_en: 'LI LEI', ...over });
  const cases: [string, Partial<NameInput>, string[]][] = [
    ['mainland, valid', {}, []],
    ['mainland, name in Latin letters', { name: 'Li Lei' }, ['name:nameNotChinese']],
    ['mainland, name_en not capitals', { name_en: 'Li Lei' }, ['name_en:nameEnNotCapitals']],
    ['mainland, name_en with apostrophe', { name_en: "LI'LEI" }, ['name_en:nameEnNotCapitals']],
    // PRODUCT.md: spacing is free at syllable boundaries (was refused).
    ['mainland, name_en double space', { name_en: 'LI  LEI' }, []],
    ['mainland, name_en leading space', { name_en: ' LI LEI' }, ['name_en:nameEnSpaces']],
    ['mainland, name_en trailing space', { name_en: 'LI LEI ' }, ['name_en:nameEnSpaces']],
    ['mainland, name_en in full-width capitals', { name_en: 'ＬＩ　ＬＥＩ' }, []],
    ['mainland, name with a digit', { name: '李雷2' }, ['name:nameDigits']],
    [
      'mainland, name with the bullet look-alike',
      { name: '阿依古丽•买买提', name_en: 'AYIGULI MAIMAITI' },
      [],
    ],
    ['mainland, not the pinyin', { name_en: 'LI MING' }, ['name_en:nameEnPinyinMismatch']],
    [
      'mainland, bad name: no pinyin comparison',
      { name: 'Li Lei', name_en: 'LI MING' },
      ['name:nameNotChinese'],
    ],
    ['mainland, name failed earlier', { name: undefined, name_en: 'LI MING' }, []],
    // PRODUCT.md: pinyin for every mainland applicant, whatever the document (was not checked).
    ['mainland, any document: not the pinyin', { name_en: 'LEE LAY' }, ['name_en:nameEnPinyinMismatch']],
    ['Hong Kong: English name, free', { country: 'HK', name: 'Chan Tai Man', name_en: 'CHAN TAI MAN' }, []],
    ['Hong Kong: Cantonese name in any case', { country: 'HK', name: '陳大文', name_en: 'Chan Tai Man' }, []],
    [
      'Hong Kong: Chinese name with a digit',
      { country: 'HK', name: '陳大文2', name_en: 'CHAN TAI MAN' },
      ['name:nameDigits'],
    ],
    ['Taiwan: Wade-Giles with a hyphen', { country: 'TW', name: '王小明', name_en: 'WANG, HSIAO-MING' }, []],
    ['other country: accents', { country: 'FR', name: 'José', name_en: 'José Müller' }, []],
    [
      'other country: digits in name_en',
      { country: 'US', name: 'John', name_en: 'JOHN 2' },
      ['name_en:nameDigits'],
    ],
    [
      'other country: punctuation allowed',
      { country: 'US', name: 'John', name_en: "JOHN O'NEIL-SMITH JR." },
      [],
    ],
    // PRODUCT.md: Latin letters in any case for everyone but mainland applicants (was refused).
    ['other country: lower case', { country: 'US', name: 'John', name_en: 'John Smith' }, []],
    [
      'other country: leading hyphen refused',
      { country: 'US', name: 'John', name_en: '-JOHN' },
      ['name_en:nameEnNotLatin'],
    ],
    [
      'other country: Chinese in name_en',
      { country: 'SG', name: '陈', name_en: '陈' },
      ['name_en:nameEnNotLatin'],
    ],
  ];
  for (const [name, over, expected] of cases) {
    test(`${name} -> ${expected.join(',') || 'ok'}`, () => {
      assert.deepEqual(
        checkNames(input(over)).map((p) => `${p.field}:${p.error}`),
        expected,
      );
    });
  }
});
