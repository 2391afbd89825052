import * as data from './nameData.ts';
import * as listed from './listedNames.ts';
import { buildPassportEntries, buildPassportOrdinary, buildPassportVariants } from './buildPassportSet.ts';
import { birthdayFor, random, titleCase, upperPinyin } from './seeded.ts';

/**
 * Builds the labelled screening test set, deterministically (a seeded generator): test-made list
 * entries (written as a UN Consolidated List file), variants of their names that an applicant on
 * the list might use (each labelled with the entry it must hit), and ordinary applicants made of
 * common names (none of which should hit). `writeLabelledSet.ts` writes them into this folder.
 */

export interface TestEntry {
  reference: string;
  group: string;
  primary: string;
  /** The name in Chinese characters, for Chinese entries. */
  han?: string;
  /** The parts the passport groups' variants are written from (buildPassportSet.ts). */
  parts?: Record<string, string>;
  aliases: { name: string; quality: 'Good' | 'Low' }[];
  dob?: { exact: string } | { year: number; approx: boolean };
  nationality?: string;
  country?: string;
  passport?: string;
}

export interface Applicant {
  label: string;
  name: string;
  name_en: string;
  birthday: string;
  country: string;
}

export function buildEntries(): TestEntry[] {
  const r = random(24);
  const entries: TestEntry[] = [];
  const dob = (): TestEntry['dob'] => {
    const roll = r.next();
    if (roll < 0.7) return { exact: r.date(1950, 1995) };
    if (roll < 0.9) return { year: 1950 + Math.floor(r.next() * 45), approx: r.next() < 0.5 };
    return undefined;
  };
  const passport = () =>
    r.next() < 0.4 ? `TP${String(Math.floor(r.next() * 1e7)).padStart(7, '0')}` : undefined;
  const add = (group: string, entry: Omit<TestEntry, 'reference' | 'group' | 'dob' | 'passport'>) => {
    const primary = entry.primary;
    if (entries.some((e) => e.primary === primary)) return;
    entries.push({
      reference: `TSi.${String(entries.length + 1).padStart(3, '0')}`,
      group,
      ...entry,
      dob: dob(),
      passport: passport(),
    });
  };
  const arabicNationalities: [string, string][] = [
    ['Iraq', 'IQ'],
    ['Syria', 'SY'],
    ['Yemen', 'YE'],
    ['Afghanistan', 'AF'],
    ['Saudi Arabia', 'SA'],
  ];
  while (entries.length < 40) {
    const given = r.pick(listed.ARABIC_GIVEN);
    const father = r.pick(listed.ARABIC_GIVEN.filter((g) => g !== given));
    const family = r.pick(listed.ARABIC_FAMILY);
    const [nationality, country] = r.pick(arabicNationalities);
    add('arabic', {
      primary: `${given} ${father} al-${family}`,
      aliases: [
        { name: `${given} al-${family}`, quality: 'Good' },
        { name: `Abu ${father}`, quality: 'Low' },
      ],
      nationality,
      country,
    });
  }
  while (entries.length < 70) {
    const given = r.pick(listed.RUSSIAN_GIVEN);
    const family = r.pick(listed.RUSSIAN_FAMILY);
    add('russian', {
      primary: `${given} ${r.pick(listed.RUSSIAN_PATRONYMIC)} ${family.toUpperCase()}`,
      aliases: [{ name: `${family} ${given}`, quality: 'Good' }],
      nationality: r.pick(['Russia', 'Russian Federation', 'Belarus']),
      country: 'RU',
    });
  }
  while (entries.length < 110) {
    const han =
      r.pick(data.CHINESE_SURNAMES.slice(0, 40)) +
      r.pick(listed.CHINESE_LISTED_GIVEN) +
      r.pick(listed.CHINESE_LISTED_GIVEN);
    const [surname, ...given] = upperPinyin(han);
    add('chinese', {
      primary: `${surname} ${titleCase(given.join(''))}`,
      han,
      aliases: [],
      nationality: 'China',
      country: 'CN',
    });
  }
  while (entries.length < 135) {
    const surname = r.pick(listed.KOREAN_LISTED_SURNAMES);
    add('korean', {
      primary: `${surname} ${r.pick(listed.KOREAN_LISTED_GIVEN)}`,
      aliases: [],
      nationality: "Democratic People's Republic of Korea",
      country: 'KP',
    });
  }
  while (entries.length < 160) {
    const family = r.pick(listed.SPANISH_FAMILY);
    const mother = r.pick(listed.SPANISH_FAMILY.filter((f) => f !== family));
    add('spanish', {
      primary: `${r.pick(listed.SPANISH_GIVEN)} ${r.pick(listed.SPANISH_GIVEN)} ${family} ${mother}`,
      aliases: [],
      nationality: 'Venezuela',
      country: 'VE',
    });
  }
  while (entries.length < 180) {
    add('european', {
      primary: `${r.pick(listed.EUROPEAN_GIVEN)} ${r.pick(listed.EUROPEAN_FAMILY)}`,
      aliases: [],
    });
  }
  return [...entries, ...buildPassportEntries(entries.length)];
}

const stripMarks = (text: string) =>
  text.normalize('NFKD').replace(/\p{M}/gu, '').replace(/ø/g, 'o').replace(/ł/g, 'l');

export function buildVariants(entries: readonly TestEntry[]): Applicant[] {
  const r = random(2024);
  const variants: Applicant[] = [];
  const add = (entry: TestEntry, kind: string, nameEn: string, name = '') =>
    variants.push({
      label: `${entry.reference} ${kind}`,
      name,
      name_en: nameEn,
      birthday: birthdayFor(entry, r),
      country: entry.country ?? r.pick(['DE', 'FR', 'PL', 'TR', 'GB']),
    });
  for (const entry of entries) {
    if (entry.parts !== undefined) continue;
    const tokens = entry.primary.split(' ');
    const transliterated = listed.TRANSLITERATIONS.reduce(
      (text, [from, to]) => (text === entry.primary && from.test(text) ? text.replace(from, to) : text),
      entry.primary,
    );
    if (transliterated !== entry.primary) add(entry, 'transliteration', transliterated);
    add(entry, 'reordered', [tokens[tokens.length - 1], ...tokens.slice(0, -1)].join(' ').toUpperCase());
    if (tokens.length >= 3) add(entry, 'middle-name-missing', [tokens[0], ...tokens.slice(2)].join(' '));
    if (stripMarks(entry.primary) !== entry.primary)
      add(entry, 'diacritics-dropped', stripMarks(entry.primary).toUpperCase());
    for (const alias of entry.aliases.filter((a) => a.quality === 'Good')) add(entry, 'alias', alias.name);
    if (entry.han !== undefined) {
      add(entry, 'chinese-characters', '', entry.han);
      add(entry, 'pinyin-spaced', upperPinyin(entry.han).join(' '), entry.han);
    }
    const longest = tokens.reduce((a, b) => (b.length > a.length ? b : a));
    const at = 2 + Math.floor(r.next() * (longest.length - 3));
    const typo = longest.slice(0, at) + longest[at + 1] + longest[at] + longest.slice(at + 2);
    add(entry, 'typo', entry.primary.replace(longest, typo));
    if (entry.group === 'korean') add(entry, 'unhyphenated', entry.primary.replace('-', '').toUpperCase());
  }
  return [...variants, ...buildPassportVariants(entries)];
}

/** The ordinary applicants: the first 10,200 as before, then the passport groups' 10,000. */
export function buildOrdinary(): Applicant[] {
  return [...buildOrdinaryNames(10_200), ...buildPassportOrdinary(10_000)];
}

function buildOrdinaryNames(count: number): Applicant[] {
  const r = random(7);
  const people: Applicant[] = [];
  const given = (chars: readonly string[]) =>
    r.next() < 0.3 ? r.pick(chars) : r.pick(chars) + r.pick(chars);
  const add = (label: string, name: string, nameEn: string, country: string) =>
    people.push({ label, name, name_en: nameEn, birthday: r.date(1950, 2006), country });
  const hk = Object.keys(data.HONG_KONG_GIVEN);
  const tw = Object.keys(data.TAIWAN_GIVEN);
  while (people.length < count) {
    const roll = r.next();
    if (roll < 0.4) {
      const han = r.pick(data.CHINESE_SURNAMES) + given(data.CHINESE_GIVEN_CHARACTERS);
      const [surname, ...rest] = upperPinyin(han);
      add('mainland', han, `${surname} ${rest.join('')}`, 'CN');
    } else if (roll < 0.55) {
      const surname = r.pick(Object.keys(data.HONG_KONG_SURNAMES));
      const chars = [...given(hk)];
      const spelled = chars.map((c) => data.HONG_KONG_GIVEN[c]!);
      add(
        'hong-kong',
        surname + chars.join(''),
        `${data.HONG_KONG_SURNAMES[surname]} ${spelled.join(' ')}`,
        'HK',
      );
    } else if (roll < 0.7) {
      const surname = r.pick(Object.keys(data.TAIWAN_SURNAMES));
      const chars = [...given(tw)];
      const spelled = chars.map((c) => data.TAIWAN_GIVEN[c]!);
      add('taiwan', surname + chars.join(''), `${data.TAIWAN_SURNAMES[surname]} ${spelled.join('-')}`, 'TW');
    } else if (roll < 0.82) {
      add(
        'english',
        '',
        `${r.pick(data.ENGLISH_GIVEN)} ${r.pick(data.ENGLISH_SURNAMES)}`,
        r.pick(['US', 'GB', 'AU', 'CA']),
      );
    } else if (roll < 0.88) {
      add('korean', '', `${r.pick(data.KOREAN_SURNAMES)} ${r.pick(data.KOREAN_GIVEN)}`, 'KR');
    } else if (roll < 0.94) {
      add(
        'japanese',
        '',
        `${titleCase(r.pick(data.JAPANESE_SURNAMES))} ${titleCase(r.pick(data.JAPANESE_GIVEN))}`,
        'JP',
      );
    } else {
      const parts = [
        r.pick(data.VIETNAMESE_SURNAMES),
        r.pick(data.VIETNAMESE_MIDDLE),
        r.pick(data.VIETNAMESE_GIVEN),
      ];
      add('vietnamese', '', parts.join(' '), 'VN');
    }
  }
  return people;
}

const xml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/'/g, '&apos;');

/** The entries as a UN Consolidated List file. */
export function unListXml(entries: readonly TestEntry[]): string {
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<!-- Test-made entries (test/screening/labelled/README.md); nobody here is a listed person. -->',
    '<CONSOLIDATED_LIST dateGenerated="2026-11-20T00:00:00.000Z">',
    '<INDIVIDUALS>',
  ];
  for (const e of entries) {
    const [first, ...rest] = e.primary.split(' ');
    lines.push(
      '<INDIVIDUAL>',
      `<DATAID>${e.reference.slice(4)}</DATAID>`,
      `<FIRST_NAME>${xml(first!)}</FIRST_NAME>`,
    );
    // Up to four parts, the fourth holding the rest (da MAGALHÃES VASCONCELOS).
    const parts = rest.length > 3 ? [...rest.slice(0, 2), rest.slice(2).join(' ')] : rest;
    parts.forEach((part, i) => {
      const tag = ['SECOND_NAME', 'THIRD_NAME', 'FOURTH_NAME'][i]!;
      lines.push(`<${tag}>${xml(part)}</${tag}>`);
    });
    lines.push(`<REFERENCE_NUMBER>${e.reference}</REFERENCE_NUMBER>`);
    if (e.han !== undefined) lines.push(`<NAME_ORIGINAL_SCRIPT>${e.han}</NAME_ORIGINAL_SCRIPT>`);
    if (e.nationality !== undefined)
      lines.push(`<NATIONALITY><VALUE>${xml(e.nationality)}</VALUE></NATIONALITY>`);
    for (const alias of e.aliases) {
      lines.push(
        `<INDIVIDUAL_ALIAS><QUALITY>${alias.quality}</QUALITY><ALIAS_NAME>${xml(alias.name)}</ALIAS_NAME></INDIVIDUAL_ALIAS>`,
      );
    }
    if (e.dob !== undefined) {
      lines.push(
        'exact' in e.dob
          ? `<INDIVIDUAL_DATE_OF_BIRTH><TYPE_OF_DATE>EXACT</TYPE_OF_DATE><DATE>${e.dob.exact}</DATE></INDIVIDUAL_DATE_OF_BIRTH>`
          : `<INDIVIDUAL_DATE_OF_BIRTH><TYPE_OF_DATE>${e.dob.approx ? 'APPROXIMATELY' : 'EXACT'}</TYPE_OF_DATE><YEAR>${e.dob.year}</YEAR></INDIVIDUAL_DATE_OF_BIRTH>`,
      );
    }
    if (e.passport !== undefined) {
      lines.push(
        `<INDIVIDUAL_DOCUMENT><TYPE_OF_DOCUMENT>Passport</TYPE_OF_DOCUMENT><NUMBER>${e.passport}</NUMBER></INDIVIDUAL_DOCUMENT>`,
      );
    }
    lines.push('</INDIVIDUAL>');
  }
  lines.push('</INDIVIDUALS>', '<ENTITIES/>', '</CONSOLIDATED_LIST>', '');
  return lines.filter((l) => l !== '' || false).join('\n') + '\n';
}

export const tsv = (people: readonly Applicant[]) =>
  [
    'label\tname\tname_en\tbirthday\tcountry',
    ...people.map((p) => [p.label, p.name, p.name_en, p.birthday, p.country].join('\t')),
  ].join('\n') + '\n';
