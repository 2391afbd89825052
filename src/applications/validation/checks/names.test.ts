import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
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
    // PRODUCT.md, issue 25: Ü itself, as Hanyu Pinyin and passports print it (was refused).
    ['吕布', 'LÜ BU', true],
    ['女娲', 'NÜ WA', true],
    ['略', 'LÜE', true],
    ['居易', 'JÜ YI', false], // after J, Q, X and Y Hanyu Pinyin writes ü as U
    ['居易', 'JU YI', true],
    // the syllable-dividing apostrophe, only before a syllable beginning with A, O or E
    ['吉安', "JI'AN", true],
    ['吉安', 'JIAN', true],
    ['吉安', 'JI AN', true],
    ['张西安', "ZHANG XI'AN", true],
    ['刘恩', "LIU'EN", true],
    ['李平安', "LI PING'AN", true],
    ['欧阳', "OU'YANG", false], // Y is no syllable-dividing position
    ['李雷', "LI'LEI", false],
    ['李安', "LI 'AN", false],
    ['李𠇔', "LI'XYZ", false],
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

/** The words of a rule a test looks for, to tell which rule a nameEnPinyinForm gave. */
const ruleHint = (rule: unknown): string => {
  if (typeof rule !== 'string') return '';
  const found = ['"-"', 'apostrophe', 'Chinese', 'tone', 'Ü'].find((word) => rule.includes(word));
  return `:${found ?? rule}`;
};

describe('checkNames', () => {
  const input = (over: Partial<NameInput>): NameInput =>
    readNames({ country: 'CN', name: '李雷', name_en: 'LI LEI', ...over });
  const cases: [string, Partial<NameInput>, string[]][] = [
    ['mainland, valid', {}, []],
    ['mainland, name in Latin letters', { name: 'Li Lei' }, ['name:nameNotChinese']],
    ['mainland, name_en not capitals', { name_en: 'Li Lei' }, ['name_en:nameEnNotCapitals']],
    // Issue 25: a refusal says what is wrong with the value, not always "capital letters".
    [
      'mainland, apostrophe between syllables that need none',
      { name_en: "LI'LEI" },
      ['name_en:nameEnPinyinForm:apostrophe'],
    ],
    ['mainland, apostrophe at the start', { name_en: "'LI LEI" }, ['name_en:nameEnPinyinForm:apostrophe']],
    ['mainland, hyphen', { name_en: 'LI-LEI' }, ['name_en:nameEnPinyinForm:"-"']],
    ['mainland, hyphen and lower case', { name_en: 'Li-Lei' }, ['name_en:nameEnPinyinForm:"-"']],
    ['mainland, Chinese characters', { name_en: '李雷' }, ['name_en:nameEnPinyinForm:Chinese']],
    ['mainland, tone marks', { name_en: 'LǏ LÉI' }, ['name_en:nameEnPinyinForm:tone']],
    [
      'mainland, Ü where the pinyin has none',
      { name: '居易', name_en: 'JÜ YI' },
      ['name_en:nameEnPinyinForm:Ü'],
    ],
    ['mainland, lower-case ü', { name: '吕布', name_en: 'lü bu' }, ['name_en:nameEnNotCapitals']],
    ['mainland, Ü', { name: '吕布', name_en: 'LÜ BU' }, []],
    ['mainland, Ü as U and a combining diaeresis', { name: '吕布', name_en: 'LU\u0308 BU' }, []],
    ['mainland, apostrophe', { name: '吉安', name_en: "JI'AN" }, []],
    ['mainland, typographic apostrophe', { name: '吉安', name_en: 'JI’AN' }, []],
    ['mainland, modifier letter apostrophe', { name: '吉安', name_en: 'JIʼAN' }, []],
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
        checkNames(input(over)).map((p) => `${p.field}:${p.error}${ruleHint(p.params?.rule)}`),
        expected,
      );
    });
  }
});

describe('pinyin as printed (properties)', () => {
  /** Characters with one reading each: ü ones, ones beginning with A, O or E, and others. */
  const READINGS: Record<string, string> = {
    吕: 'LÜ', 女: 'NÜ', 略: 'LÜE', 安: 'AN', 恩: 'EN', 鸥: 'OU', 吉: 'JI', 西: 'XI', 宁: 'NING', 波: 'BO',
  }; // prettier-ignore
  const UMLAUT_FORMS = ['Ü', 'YU', 'V', 'U'];
  const arbName = fc.array(fc.constantFrom(...Object.keys(READINGS)), { minLength: 2, maxLength: 5 });

  test('every spelling of ü, and any divider Hanyu Pinyin allows, is the pinyin of the name', () => {
    fc.assert(
      fc.property(arbName, fc.array(fc.nat(), { minLength: 10, maxLength: 10 }), (chars, picks) => {
        let nameEn = '';
        chars.forEach((char, i) => {
          const syllable = READINGS[char]!.replace('Ü', UMLAUT_FORMS[picks[i]! % 4]!);
          const dividers = i === 0 ? [''] : /^[AOE]/.test(syllable) ? ['', ' ', "'"] : ['', ' '];
          nameEn += dividers[picks[i + 5]! % dividers.length]! + syllable;
        });
        assert.ok(isPinyinOf(chars.join(''), nameEn), `${chars.join('')} ${nameEn}`);
      }),
      { numRuns: 300 },
    );
  });

  test('an apostrophe before a syllable that begins with a consonant is refused', () => {
    fc.assert(
      fc.property(arbName, fc.nat(), (chars, pick) => {
        const syllables = chars.map((char) => READINGS[char]!);
        const consonantAt = syllables.findIndex((s, i) => i > 0 && !/^[AOE]/.test(s));
        fc.pre(consonantAt > 0);
        const nameEn = syllables.map((s, i) => (i === consonantAt ? `'${s}` : s)).join(pick % 2 ? ' ' : '');
        // `'` after a space is no divider either, so either way the spelling is not the pinyin.
        assert.equal(isPinyinOf(chars.join(''), nameEn), false, nameEn);
      }),
      { numRuns: 200 },
    );
  });
});
