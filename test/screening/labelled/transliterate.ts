/**
 * Russian Cyrillic in the Latin spellings applicants and lists use, so that the labelled set's
 * Russian and Central Asian names are written as each of them would write the same person:
 *
 * - `icao`: ICAO Doc 9303 as Russian passports have used it since 2013 (й i, ю iu, я ia, ъ ie,
 *   ё e, ь dropped): ЮРИЙ IURII, АЛЕКСЕЙ ALEKSEI.
 * - `passport1997`: the Ministry of Internal Affairs' rules for passports of 1997 to 2010 (й y,
 *   ю yu, я ya, ь dropped, ье ye): YURIY, ALEKSEY, YURYEVICH.
 * - `bgn`: BGN/PCGN, as the UN and OFAC lists mostly write Russian names (е ye at the start and
 *   after a vowel, ё yo there and e after a consonant, й y, ь dropped): Yuriy, Aleksey, Sergeyevich.
 * - `english`: as English-language forms and press write them (-ий and final й i, кс x, ё yo,
 *   е e, дж j, ья ia): Yuri, Alexei, Fyodor, Sergeevich, Jamshid, Natalia.
 */
export type System = 'icao' | 'passport1997' | 'bgn' | 'english';

const COMMON: Record<string, string> = {
  а: 'a',
  б: 'b',
  в: 'v',
  г: 'g',
  д: 'd',
  ж: 'zh',
  з: 'z',
  и: 'i',
  к: 'k',
  л: 'l',
  м: 'm',
  н: 'n',
  о: 'o',
  п: 'p',
  р: 'r',
  с: 's',
  т: 't',
  у: 'u',
  ф: 'f',
  х: 'kh',
  ц: 'ts',
  ч: 'ch',
  ш: 'sh',
  щ: 'shch',
  ы: 'y',
  э: 'e',
  ь: '',
};

const VOWELS = 'аеёиоуыэюяьъй';

function letter(system: System, c: string, before: string, after: string): string {
  const initialOrAfterVowel = before === '' || VOWELS.includes(before);
  switch (c) {
    case 'е':
      if (system === 'bgn' && initialOrAfterVowel) return 'ye';
      if (system === 'passport1997' && before === 'ь') return 'ye';
      if (system === 'english' && before === 'ь') return 'ie';
      return 'e';
    case 'ё':
      if (system === 'icao' || system === 'passport1997') return 'e';
      if (system === 'bgn') return initialOrAfterVowel ? 'yo' : 'e';
      return 'yo';
    case 'й':
      if (system === 'icao') return 'i';
      if (system === 'english' && after === '') return 'i';
      return 'y';
    case 'и':
      // English writes -ий as -i (Yuri, Dmitri): the й then adds nothing.
      return 'i';
    case 'ю':
      return system === 'icao' ? 'iu' : 'yu';
    case 'я':
      return system === 'icao' ? 'ia' : 'ya';
    case 'ъ':
      return system === 'icao' ? 'ie' : '';
    default:
      return COMMON[c] ?? c;
  }
}

function word(system: System, text: string): string {
  const lower = text.toLowerCase();
  let out = '';
  for (let i = 0; i < lower.length; i++) {
    const c = lower[i]!;
    const after = lower.slice(i + 1);
    if (system === 'english' && c === 'й' && after === '' && lower[i - 1] === 'и') continue;
    const pair = system === 'english' ? ENGLISH_PAIRS[c + (lower[i + 1] ?? '')] : undefined;
    if (pair !== undefined) {
      out += pair;
      i++;
      continue;
    }
    out += letter(system, c, lower[i - 1] ?? '', after);
  }
  return out;
}

/** English forms' spellings of two letters: Alexei, Jamshid, Natalia, Xenia. */
const ENGLISH_PAIRS: Record<string, string> = { кс: 'x', дж: 'j', ья: 'ia', ия: 'ia' };

const capitalise = (s: string) => (s === '' ? s : s[0]!.toUpperCase() + s.slice(1));

/** A name in Cyrillic, word by word, in the system's spelling (title case). */
export function transliterate(system: System, text: string): string {
  return text
    .split(' ')
    .map((w) =>
      w
        .split('-')
        .map((part) => capitalise(word(system, part)))
        .join('-'),
    )
    .join(' ');
}
