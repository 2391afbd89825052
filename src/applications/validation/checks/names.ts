import { pinyin, polyphonic } from 'pinyin-pro';
import { problem, type FieldProblem } from '../../../errors/problems.ts';
import { canonicalLatinName, canonicalName, MIDDLE_DOT } from '../../../record/canonical.ts';

/**
 * `name` and `name_en`, in their canonical readings (`canonicalName`: middle-dot look-alikes read as
 * `·`; `canonicalLatinName`: full-width letters and spaces folded).
 *
 * - `name`: never digits. For a mainland applicant (country `CN`) Chinese characters (CJK Unified
 *   Ideographs, extensions A to H), with a middle dot between the parts of a name such as
 *   阿依古丽·买买提. For everyone else any script (a Hong Kong name may be 陳大文 or Chan Tai Man).
 * - `name_en` of a mainland applicant (country `CN`, whatever the document): capital Latin letters,
 *   the pinyin of `name`, syllables in the order of the characters. Any reading of a polyphonic
 *   character is accepted, and the surname readings too (曾 ZENG, 单 SHAN, 尉迟 YUCHI, 万俟 MOQI
 *   ...). ü may be written `Ü`, `YU`, `V` or `U` (吕 LÜ, LYU, LV or LU). Spacing is free at syllable
 *   boundaries (`LI LEI`, `LILEI`, `LI  LEI`, `OUYANG XIAO MING`), and Hanyu Pinyin's apostrophe may
 *   divide two syllables before one beginning with A, O or E (`JI'AN`); a middle dot is written as
 *   a space or nothing. A refusal says what is wrong (`pinyinFormProblem`). A character pinyin-pro has no reading for (some rare extension characters)
 *   matches any one syllable of 1 to 6 letters.
 * - `name_en` of anyone else: Latin letters in any case (accents included), words separated by
 *   spaces, a word holding hyphens, apostrophes, commas and periods after its first letter
 *   (`Chan Tai Man`, `O'NEIL`, `Jean-Luc`, `CHAN, Tai Man`, `JR.`): Cantonese, Wade-Giles and
 *   foreign names are not pinyin.
 * - Both: no space at either end.
 */

const HAN = '\\u3400-\\u4DBF\\u4E00-\\u9FFF\\u{20000}-\\u{2F7FF}\\u{30000}-\\u{323AF}';
const CHINESE_NAME = new RegExp(`^[${HAN}]+(?:${MIDDLE_DOT}[${HAN}]+)*$`, 'u');
const HAN_CHAR = new RegExp(`^[${HAN}]$`, 'u');
/** A pinyin word: capital letters and Ü, syllables run together or divided by an apostrophe. */
const PINYIN_WORD = "[A-ZÜ]+(?:'[A-ZÜ]+)*";
const MAINLAND_NAME_EN = new RegExp(`^${PINYIN_WORD}(?: +${PINYIN_WORD})*$`);
/** Hanyu Pinyin divides syllables with an apostrophe only before one beginning with A, O or E (XI'AN). */
const APOSTROPHE_BEFORE = /^[AOE]/;
const LATIN_WORD = "\\p{Script=Latin}[\\p{Script=Latin}\\p{M}'\u2019.,-]*";
const OTHER_NAME_EN = new RegExp(`^${LATIN_WORD}(?: +${LATIN_WORD})*$`, 'u');
const DIGIT = /\p{Nd}/u;
const LETTER = /^[a-zü]+$/;
/** A syllable pinyin-pro does not know matches this many letters at most. */
const MAX_UNKNOWN_SYLLABLE = 6;

/** Whether `name` (any middle-dot look-alike allowed) is a Chinese name. */
export function isChineseName(name: string): boolean {
  return CHINESE_NAME.test(canonicalName(name));
}

/** Candidate spellings of a character: an empty list means "any one syllable". */
type Candidates = readonly string[];

/** Readings of single characters, filled as characters are met (bounded by the ~100k ideographs). */
const readingCache = new Map<string, Candidates>();

/** The capital-letter spellings of a toneless pinyin syllable: ü as Ü itself, YU, V or U. */
function spellings(syllable: string): string[] {
  const upper = syllable.toUpperCase();
  if (!upper.includes('Ü')) return [upper];
  return [upper, upper.replaceAll('Ü', 'YU'), upper.replaceAll('Ü', 'V'), upper.replaceAll('Ü', 'U')];
}

function addReading(into: Set<string>, syllable: string | undefined): void {
  if (syllable === undefined || !LETTER.test(syllable)) return;
  for (const s of spellings(syllable)) into.add(s);
}

/** All readings of one character, cached. */
function characterReadings(char: string): Candidates {
  let cached = readingCache.get(char);
  if (cached === undefined) {
    const set = new Set<string>();
    for (const reading of polyphonic(char, { toneType: 'none', type: 'array' })[0] ?? [])
      addReading(set, reading);
    cached = [...set];
    readingCache.set(char, cached);
  }
  return cached;
}

function hanCharacters(name: string): string[] {
  return [...name].filter((c) => HAN_CHAR.test(c));
}

/** Every dictionary reading of each character of a Chinese name (middle dots dropped); cached per character. */
export function characterCandidates(name: string): Candidates[] {
  return hanCharacters(name).map(characterReadings);
}

/**
 * The candidate spellings of each character of a Chinese name (middle dots dropped): every reading
 * of the character, plus the readings pinyin-pro gives the name in context and in surname mode.
 */
export function nameSyllableCandidates(name: string): Candidates[] {
  const chars = hanCharacters(name);
  const plain = chars.join('');
  const aligned = (readings: string[]) => (readings.length === chars.length ? readings : []);
  const inContext = aligned(pinyin(plain, { toneType: 'none', type: 'array' }));
  const asSurname = aligned(
    pinyin(plain, { toneType: 'none', type: 'array', mode: 'surname', surname: 'head' }),
  );
  return chars.map((char, i) => {
    const base = characterReadings(char);
    const extra = [inContext[i], asSurname[i]].filter((r) => r !== undefined && LETTER.test(r));
    if (extra.length === 0) return base;
    const set = new Set(base);
    for (const r of extra) addReading(set, r);
    // A character without a reading of its own stays a wildcard only when the name gives it none.
    return set.size === base.length ? base : [...set];
  });
}

/**
 * Whether `nameEn` (capital letters and single spaces) spells the syllables in order, with an
 * optional single space at each syllable boundary, or an apostrophe before a syllable beginning
 * with A, O or E (Hanyu Pinyin's syllable-dividing mark: JI'AN). A dynamic programme over positions
 * in `nameEn`: O(characters x candidates x positions), a few hundred steps for a real name.
 */
export function matchesSyllables(nameEn: string, syllables: readonly Candidates[]): boolean {
  if (syllables.length === 0) return false;
  let reach = new Set<number>([0]);
  for (let i = 0; i < syllables.length; i++) {
    const candidates = syllables[i]!;
    const next = new Set<number>();
    for (const start of reach) {
      const divider = i > 0 ? nameEn[start] : undefined;
      const starts = divider === ' ' || divider === "'" ? [start, start + 1] : [start];
      for (const at of starts) {
        // After an apostrophe, only a syllable that begins with A, O or E.
        const afterApostrophe = at > start && divider === "'";
        if (afterApostrophe && !APOSTROPHE_BEFORE.test(nameEn.slice(at))) continue;
        if (candidates.length === 0) {
          for (let len = 1; len <= MAX_UNKNOWN_SYLLABLE; len++) {
            const c = nameEn[at + len - 1];
            if (c === undefined || c === ' ' || c === "'") break;
            next.add(at + len);
          }
          continue;
        }
        for (const candidate of candidates) {
          if (nameEn.startsWith(candidate, at)) next.add(at + candidate.length);
        }
      }
    }
    if (next.size === 0) return false;
    reach = next;
  }
  return reach.has(nameEn.length);
}

/** Whether `nameEn` is an accepted pinyin spelling of the Chinese `name` (spacing free at syllable boundaries). */
export function isPinyinOf(name: string, nameEn: string): boolean {
  if (!MAINLAND_NAME_EN.test(nameEn)) return false;
  nameEn = nameEn.replace(/ +/g, ' ');
  // Fast path: the cached dictionary readings of each character almost always suffice; the
  // context and surname readings (two pinyin-pro passes over the name) only when they do not.
  return (
    matchesSyllables(nameEn, characterCandidates(name)) ||
    matchesSyllables(nameEn, nameSyllableCandidates(name))
  );
}

export interface NameInput {
  readonly country: string;
  /** The canonical `name`; leave out when `name` failed an earlier check. */
  readonly name?: string | undefined;
  /** The canonical `name_en`; leave out when `name_en` failed an earlier check. */
  readonly name_en?: string | undefined;
}

export function checkNames(input: NameInput): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const mainland = input.country === 'CN';
  let nameOk = input.name !== undefined;
  if (input.name !== undefined) {
    if (DIGIT.test(input.name)) {
      problems.push(problem('name', 'nameDigits'));
      nameOk = false;
    } else if (mainland && !CHINESE_NAME.test(input.name)) {
      problems.push(problem('name', 'nameNotChinese'));
      nameOk = false;
    }
  }
  const nameEn = input.name_en;
  if (nameEn === undefined) return problems;
  if (nameEn !== nameEn.trim()) {
    problems.push(problem('name_en', 'nameEnSpaces'));
  } else if (DIGIT.test(nameEn)) {
    problems.push(problem('name_en', 'nameDigits'));
  } else if (!mainland) {
    if (!OTHER_NAME_EN.test(nameEn)) problems.push(problem('name_en', 'nameEnNotLatin'));
  } else if (!MAINLAND_NAME_EN.test(nameEn)) {
    problems.push(pinyinFormProblem(nameEn));
  } else if (nameOk && input.name !== undefined && !isPinyinOf(input.name, nameEn)) {
    problems.push(pinyinMismatchProblem(input.name, nameEn));
  }
  return problems;
}

const PINYIN_RULES = {
  hanzi: {
    rule: 'must be the pinyin of name in Latin letters, not Chinese characters',
    rule_zh: '须为 name 的拼音（拉丁字母），不能用汉字',
  },
  marks: {
    rule: 'pinyin is written without tone marks or accents; the only letter with a mark is Ü',
    rule_zh: '拼音不标声调或其他附加符号，只有 Ü 带符号',
  },
  apostrophe: {
    rule: "an apostrophe divides two syllables only before one beginning with A, O or E, as in XI'AN",
    rule_zh: "隔音符号 ' 只用在以 A、O、E 开头的音节之前，如 XI'AN",
  },
  umlaut: {
    rule: 'Ü is written only where the pinyin has ü, as in LÜ and NÜ (or write it YU, V or U)',
    rule_zh: 'Ü 只用于拼音中有 ü 的音节，如 LÜ、NÜ（也可写作 YU、V 或 U）',
  },
  other: {
    rule: 'must be the pinyin of name: capital letters (Ü included), with spaces or an apostrophe between syllables',
    rule_zh: "须为 name 的拼音：大写字母（可含 Ü），音节之间可用空格或隔音符号 '",
  },
} as const;

/**
 * Why a mainland `name_en` is not written as pinyin, said as it is: lower case (and nothing else),
 * a punctuation mark named (never a letter of the name), Chinese characters, tone marks, or a
 * misplaced apostrophe.
 */
function pinyinFormProblem(nameEn: string): FieldProblem {
  if (MAINLAND_NAME_EN.test(nameEn.toUpperCase())) return problem('name_en', 'nameEnNotCapitals');
  const stray = [...nameEn].find((c) => !/[A-ZÜa-zü' ]/.test(c));
  if (stray !== undefined && /^[!-/:-@[-`{-~]$/.test(stray)) {
    return problem('name_en', 'nameEnPinyinForm', {
      rule: `"${stray}" is not written in a pinyin name; ${PINYIN_RULES.other.rule}`,
      rule_zh: `拼音姓名中不能有“${stray}”；${PINYIN_RULES.other.rule_zh}`,
    });
  }
  if (stray !== undefined && HAN_CHAR.test(stray))
    return problem('name_en', 'nameEnPinyinForm', PINYIN_RULES.hanzi);
  if (stray !== undefined && /\p{Script=Latin}/u.test(stray.normalize('NFD')[0] ?? ''))
    return problem('name_en', 'nameEnPinyinForm', PINYIN_RULES.marks);
  if (stray === undefined && nameEn.includes("'"))
    return problem('name_en', 'nameEnPinyinForm', PINYIN_RULES.apostrophe);
  return problem('name_en', 'nameEnPinyinForm', PINYIN_RULES.other);
}

/** A well-formed `name_en` that is not the pinyin of `name`: an apostrophe or a Ü out of place is named. */
function pinyinMismatchProblem(name: string, nameEn: string): FieldProblem {
  if (nameEn.includes("'") && isPinyinOf(name, nameEn.replaceAll("'", '')))
    return problem('name_en', 'nameEnPinyinForm', PINYIN_RULES.apostrophe);
  if (nameEn.includes('Ü') && isPinyinOf(name, nameEn.replaceAll('Ü', 'U')))
    return problem('name_en', 'nameEnPinyinForm', PINYIN_RULES.umlaut);
  return problem('name_en', 'nameEnPinyinMismatch');
}

/** The names of an application as sent, read canonically: for tests and callers without a reading. */
export function readNames(input: {
  country: string;
  name?: string | undefined;
  name_en?: string | undefined;
}): NameInput {
  return {
    country: input.country,
    name: input.name === undefined ? undefined : canonicalName(input.name),
    name_en: input.name_en === undefined ? undefined : canonicalLatinName(input.name_en),
  };
}
