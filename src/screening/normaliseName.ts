import { pinyin } from 'pinyin-pro';

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

/** Titles and honorifics, and particles that lists write sometimes and sometimes not. */
const DROPPED = new Set([
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
  'al',
  'el',
  'ul',
  'bin',
  'ibn',
  'bint',
  'ben',
  'de',
  'da',
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
]);

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
    .replace(/['’‘`ʼ]/g, '')
    .replace(/[^\p{L}\p{N}]+/gu, ' ');
  return folded.split(' ').filter((t) => t !== '' && !DROPPED.has(t));
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
 * A token with the commonest transliteration differences folded away (iou/ou and u, y and i,
 * tch and ch, ph and f, doubled letters, -off and -ov): Iouri and Yuri, Youssef and Yusuf,
 * Kravtchenkoff and Kravchenkov read alike. Used beside the token, not instead of it.
 */
export function foldToken(token: string): string {
  return token
    .replace(/iou/g, 'yu')
    .replace(/ou/g, 'u')
    .replace(/tch/g, 'ch')
    .replace(/ph/g, 'f')
    .replace(/ff$/, 'v')
    .replace(/y/g, 'i')
    .replace(/(.)\1/g, '$1');
}
