import { pinyin, polyphonic } from 'pinyin-pro';
import { problem, type FieldProblem } from '../../errors/problems.ts';

/**
 * `name` and `name_en`.
 *
 * - `name`, country `CN`: Chinese characters (CJK Unified Ideographs, extensions A to H), with a
 *   middle dot (`·`, also `‧` or `・`) between the parts of a name such as 阿依古丽·买买提.
 * - `name_en`: capital Latin letters, words separated by single spaces; for a country other than
 *   `CN` a word may also hold `-`, `'` and `.` after its first letter (`O'NEIL`, `JEAN-LUC`, `JR.`).
 * - Mainland applicant (country `CN`, cert_type `00`): `name_en` is the pinyin of `name`, syllables
 *   in the order of the characters. Any reading of a polyphonic character is accepted, and the
 *   surname readings too (曾 ZENG, 单 SHAN, 尉迟 YUCHI, 万俟 MOQI ...). ü may be written `YU`, `V`
 *   or `U` (吕 LYU, LV or LU). Syllables may be joined or split by single spaces at any syllable
 *   boundary (`LI LEI`, `LILEI`, `OUYANG XIAO MING`); a middle dot is written as a space or nothing.
 *   A character pinyin-pro has no reading for (some rare extension characters) matches any one
 *   syllable of 1 to 6 letters.
 */

const HAN = '\\u3400-\\u4DBF\\u4E00-\\u9FFF\\u{20000}-\\u{2F7FF}\\u{30000}-\\u{323AF}';
const DOTS = '\u00B7\u2027\u30FB';
const CHINESE_NAME = new RegExp(`^[${HAN}]+(?:[${DOTS}][${HAN}]+)*$`, 'u');
const HAN_CHAR = new RegExp(`^[${HAN}]$`, 'u');
const MAINLAND_NAME_EN = /^[A-Z]+(?: [A-Z]+)*$/;
const OTHER_NAME_EN = /^[A-Z][A-Z'.-]*(?: [A-Z][A-Z'.-]*)*$/;
const LETTER = /^[a-zü]+$/;
/** A syllable pinyin-pro does not know matches this many letters at most. */
const MAX_UNKNOWN_SYLLABLE = 6;

export function isChineseName(name: string): boolean {
  return CHINESE_NAME.test(name);
}

/** Candidate spellings of a character: an empty list means "any one syllable". */
type Candidates = readonly string[];

/** Readings of single characters, filled as characters are met (bounded by the ~100k ideographs). */
const readingCache = new Map<string, Candidates>();

/** The capital-letter spellings of a toneless pinyin syllable: ü as YU, V or U. */
function spellings(syllable: string): string[] {
  const upper = syllable.toUpperCase();
  if (!upper.includes('Ü')) return [upper];
  return [upper.replaceAll('Ü', 'YU'), upper.replaceAll('Ü', 'V'), upper.replaceAll('Ü', 'U')];
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
 * optional single space at each syllable boundary. A dynamic programme over positions in `nameEn`:
 * O(characters x candidates x positions), a few hundred steps for a real name.
 */
export function matchesSyllables(nameEn: string, syllables: readonly Candidates[]): boolean {
  if (syllables.length === 0) return false;
  let reach = new Set<number>([0]);
  for (let i = 0; i < syllables.length; i++) {
    const candidates = syllables[i]!;
    const next = new Set<number>();
    for (const start of reach) {
      const starts = i > 0 && nameEn[start] === ' ' ? [start, start + 1] : [start];
      for (const at of starts) {
        if (candidates.length === 0) {
          for (let len = 1; len <= MAX_UNKNOWN_SYLLABLE; len++) {
            const c = nameEn[at + len - 1];
            if (c === undefined || c === ' ') break;
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

/** Whether `nameEn` is an accepted pinyin spelling of the Chinese `name`. */
export function isPinyinOf(name: string, nameEn: string): boolean {
  if (!MAINLAND_NAME_EN.test(nameEn)) return false;
  // Fast path: the cached dictionary readings of each character almost always suffice; the
  // context and surname readings (two pinyin-pro passes over the name) only when they do not.
  return (
    matchesSyllables(nameEn, characterCandidates(name)) ||
    matchesSyllables(nameEn, nameSyllableCandidates(name))
  );
}

export interface NameInput {
  readonly country: string;
  readonly cert_type: string;
  /** Leave out when `name` failed an earlier check. */
  readonly name?: string | undefined;
  /** Leave out when `name_en` failed an earlier check. */
  readonly name_en?: string | undefined;
}

export function checkNames(input: NameInput): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const mainland = input.country === 'CN';
  let nameOk = input.name !== undefined;
  if (mainland && input.name !== undefined && !isChineseName(input.name)) {
    problems.push(problem('name', 'nameNotChinese'));
    nameOk = false;
  }
  if (input.name_en === undefined) return problems;
  if (!(mainland ? MAINLAND_NAME_EN : OTHER_NAME_EN).test(input.name_en)) {
    problems.push(problem('name_en', 'nameEnNotCapitals'));
    return problems;
  }
  if (mainland && input.cert_type === '00' && nameOk && input.name !== undefined) {
    if (!isPinyinOf(input.name, input.name_en)) problems.push(problem('name_en', 'nameEnPinyinMismatch'));
  }
  return problems;
}
