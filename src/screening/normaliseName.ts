import { pinyin } from 'pinyin-pro';
import { canonicalSpelling } from './nameVariants.ts';

/**
 * Names as screening compares them: lower-case Latin letters without diacritics, punctuation read
 * as a space (an apostrophe as nothing: O'Neil is oneil), honorifics and name particles dropped,
 * in tokens. A name in Chinese characters is read through its pinyin, surname first and the given
 * name as one token (the way passports and lists write it), and also kept as characters, so that a
 * listed name in original script is compared character for character too.
 */
export interface NormalisedName {
  tokens: string[];
  /** The Chinese characters of the name, when it is written in them; else ''. */
  han: string;
}

const HAN = /\p{Script=Han}/u;
const HAN_ALL = /\p{Script=Han}/gu;

/** Titles and honorifics: dropped wherever they stand. */
const TITLES = new Set([
  'mr',
  'mrs',
  'ms',
  'miss',
  'mx',
  'dr',
  'prof',
  'sir',
  'madam',
  'dame',
  'lord',
  'haji',
  'hajji',
  'hadji',
  'alhaji',
  'sheikh',
  'shaikh',
  'sheik',
  'mullah',
  'mulla',
  'maulana',
  'mawlawi',
  'maulvi',
  'imam',
  'general',
  'gen',
  'colonel',
  'col',
  'captain',
  'capt',
  'major',
  'jr',
  'sr',
  'ii',
  'iii',
]);

/**
 * Particles that lists write sometimes and sometimes not (`y` and `e` join Spanish and Portuguese
 * surnames). Several are also Chinese syllables (de, da, du, di, le, bin: 黄德 HUANG DE, 杜伟
 * DU WEI, 晶斌 Jing-Bin) or Vietnamese surnames (Le), so a particle is dropped only as a word of
 * its own or before a hyphen (al-Qatrawi), and only when two other tokens remain.
 */
const PARTICLES = new Set([
  'al',
  'el',
  'ul',
  'bin',
  'ibn',
  'bint',
  'ben',
  'de',
  'da',
  'do',
  'del',
  'der',
  'van',
  'von',
  'le',
  'la',
  'di',
  'du',
  'dos',
  'das',
  'y',
  'e',
]);

/** Arabic compounds with `Abd` (servant of): Abdul Rahman, Abd al-Rahman are one name. */
const ABD = new Set(['abd', 'abdul', 'abdel', 'abdal', 'abdol', 'abdou', 'abdu', 'abdur', 'abder']);

/** Letters that NFKD leaves whole. */
const LETTERS: Record<string, string> = {
  ß: 'ss',
  æ: 'ae',
  œ: 'oe',
  ø: 'o',
  đ: 'd',
  ð: 'd',
  ł: 'l',
  ı: 'i',
  þ: 'th',
};

export function latinTokens(text: string): string[] {
  const folded = text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[ßæœøđðłıþ]/g, (c) => LETTERS[c] ?? c)
    .replace(/['’‘`ʼ]/g, '');
  // Each part with whether it may be a particle: a word of its own or the first part of a
  // hyphenated one (al-Qatrawi), not a later part (Jing-Bin).
  const parts: { token: string; particle: boolean }[] = [];
  for (const word of folded.split(/[^\p{L}\p{N}-]+/u)) {
    word
      .split(/-+/)
      .filter((t) => t !== '' && !TITLES.has(t))
      .forEach((token, i) => parts.push({ token, particle: i === 0 && PARTICLES.has(token) }));
  }
  const others = parts.filter((p) => !p.particle).length;
  const tokens =
    others >= 2 ? parts.filter((p) => !p.particle).map((p) => p.token) : parts.map((p) => p.token);
  // Abdul Rahman, Abd al-Rahman: one token, as Abdulrahman is.
  const merged: string[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    if (ABD.has(token) && i + 1 < tokens.length) merged.push(token + tokens[++i]!);
    else merged.push(token);
  }
  return merged;
}

/** The pinyin of a name in Chinese characters: surname, then the given name as one token. */
export function pinyinTokens(han: string): string[] {
  const syllables = pinyin(han, { toneType: 'none', type: 'array', surname: 'head', v: false }).map((s) =>
    s.replace(/ü/g, 'u'),
  );
  if (syllables.length <= 1) return syllables;
  // Four characters: most often a compound surname or two surnames; the split matters little
  // because screening also compares the name as one string.
  return [syllables[0]!, syllables.slice(1).join('')];
}

export function normaliseName(text: string): NormalisedName {
  if (HAN.test(text)) {
    const han = (text.match(HAN_ALL) ?? []).join('');
    return { tokens: pinyinTokens(han), han };
  }
  return { tokens: latinTokens(text), han: '' };
}

/** Whether a name is written in Chinese characters. */
export function isHanName(text: string): boolean {
  return HAN.test(text);
}

/**
 * A token with the commonest transliteration differences folded away, used beside the token, not
 * instead of it. First a spelling the variant table knows is read as its name's (nameVariants.ts:
 * Ebrahim and Ibragim are Ibrahim); then the rules, in this order:
 *
 * - Arabic: a glued article (Alqatrawi, Elqatrawi: al-Qatrawi), the vowels of `Abd` compounds
 *   (Abdulrahman, Abdelrahman, Abdurrahman), q as k (Tariq, Tarik), a final h after a vowel
 *   (Hamzah, Abdullah);
 * - Russian: ё as yo or e (Fyodor, Fedor; Pyotr, Petr), x after a vowel as ks (Alexei, Aleksei;
 *   pinyin's x stays), dzh and dj
 *   as j (Dzhamshid, Jamshid, Djamel), kh as h (Mikhail, Mihail; Khalid, Halid), ye and ie
 *   inside a word as e (Sergeyevich, Sergeevich; Yuryevich, Iurevich);
 * - Chinese: ü as the passports write it since 2012 and before (LYU, LV, LU for 吕);
 * - and everywhere iou/ou as u, tch as ch, ph as f, -ff as -v, y as i, doubled letters as one:
 *   Iouri and Yuri, Youssef and Yusuf, Kravtchenkoff and Kravchenkov, Yuriy and Iurii read alike.
 */
export function foldToken(token: string): string {
  const known = canonicalSpelling(token) ?? token;
  return known
    .replace(/^[ln](?:yu|v)$/, (s) => `${s[0]}u`)
    .replace(/^[ae]l(?=[^aeiouy][a-z]{5})/, '')
    .replace(/^abd(?:ul|el|al|ol|ur|er|ar|u|e|a|o)(?=[^aeiouy])/, 'abd')
    .replace(/([^aeiouy])yo/g, '$1e')
    .replace(/iou/g, 'yu')
    .replace(/ou/g, 'u')
    .replace(/tch/g, 'ch')
    .replace(/ph/g, 'f')
    .replace(/dzh|dj/g, 'j')
    .replace(/kh/g, 'h')
    .replace(/(?<=[aeiou])x/g, 'ks')
    .replace(/q/g, 'k')
    .replace(/([aeiou])h$/, '$1')
    .replace(/ff$/, 'v')
    .replace(/y/g, 'i')
    .replace(/i+e(?=.)/g, 'e')
    .replace(/(.)\1/g, '$1');
}
