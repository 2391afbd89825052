import type { Applicant, TestEntry } from './buildLabelledSet.ts';
import * as listed from './listedNames.ts';
import * as data from './nameData.ts';
import { birthdayFor, random, titleCase, upperPinyin } from './seeded.ts';
import { type System, transliterate } from './transliterate.ts';

/**
 * The passport groups of the labelled set (issue 53): list entries written in full, as the UN and
 * OFAC lists write them (patronymic, father's and grandfather's names, two given names and two
 * surnames), and the names their applicants write on passports and forms: fewer parts, in other
 * transliterations. Each variant's label is `reference group/kind`. Seeded apart from the earlier
 * groups, so those are written exactly as before.
 */
export const PASSPORT_GROUPS = [
  'russian-central-asian',
  'arabic-transliteration',
  'chinese',
  'spanish-portuguese',
  'myanmar-short',
] as const;

type Rng = ReturnType<typeof random>;

/** The feminine of a Russian surname: -ов -ова, -ский -ская, -ой -ая. */
function feminine(family: string): string {
  if (/(ский|цкий)$/.test(family)) return family.replace(/ий$/, 'ая');
  if (/[ой]й$/.test(family) || /ый$/.test(family)) return family.replace(/..$/, 'ая');
  return `${family}а`;
}

function dobOf(r: Rng): TestEntry['dob'] {
  const roll = r.next();
  if (roll < 0.65) return { exact: r.date(1955, 1995) };
  if (roll < 0.88) return { year: 1955 + Math.floor(r.next() * 40), approx: r.next() < 0.5 };
  return undefined;
}

export function buildPassportEntries(start: number): TestEntry[] {
  const r = random(53);
  const entries: TestEntry[] = [];
  const add = (group: string, entry: Omit<TestEntry, 'reference' | 'group' | 'dob' | 'passport'>) => {
    if (entries.some((e) => e.primary === entry.primary)) return false;
    entries.push({
      reference: `TSi.${String(start + entries.length + 1).padStart(3, '0')}`,
      group,
      ...entry,
      dob: dobOf(r),
      passport: r.next() < 0.3 ? `TP${String(Math.floor(r.next() * 1e7)).padStart(7, '0')}` : undefined,
    });
    return true;
  };
  russianEntries(r, add);
  arabicEntries(r, add);
  chineseEntries(r, add);
  spanishEntries(r, add);
  for (const name of listed.MYANMAR_SHORT) {
    const national = r.next() < 0.5;
    add('myanmar-short', {
      primary: name,
      aliases: [],
      ...(national ? { nationality: 'Myanmar' } : {}),
      country: 'MM',
      parts: { kind: 'myanmar' },
    });
  }
  return entries;
}

type Add = (group: string, entry: Omit<TestEntry, 'reference' | 'group' | 'dob' | 'passport'>) => boolean;

function russianEntries(r: Rng, add: Add): void {
  const central: [string, string][] = [
    ['Kazakhstan', 'KZ'],
    ['Uzbekistan', 'UZ'],
    ['Tajikistan', 'TJ'],
    ['Kyrgyzstan', 'KG'],
    ['Russian Federation', 'RU'],
  ];
  let made = 0;
  while (made < 30) {
    const asian = made >= 18;
    const names = asian ? listed.CENTRAL_ASIAN_GIVEN_CYRILLIC : listed.RUSSIAN_GIVEN_CYRILLIC;
    const female = r.next() < 0.2;
    const given = r.pick(female ? names.female : names.male);
    const patronymic = r.pick(
      asian ? listed.CENTRAL_ASIAN_PATRONYMIC_CYRILLIC : listed.RUSSIAN_PATRONYMIC_CYRILLIC,
    );
    const male = r.pick(asian ? listed.CENTRAL_ASIAN_FAMILY_CYRILLIC : listed.RUSSIAN_FAMILY_CYRILLIC);
    const family = female ? feminine(male) : male;
    const cyrillic = `${given} ${female ? patronymic.replace(/ич$/, 'на') : patronymic} ${family}`;
    // The lists write BGN/PCGN mostly, English spellings sometimes; an alias in the other.
    const system: System = r.next() < 0.7 ? 'bgn' : 'english';
    const [g, p, f] = transliterate(system, cyrillic).split(' ') as [string, string, string];
    const other = transliterate(system === 'bgn' ? 'english' : 'bgn', cyrillic);
    const [nationality, country] = asian ? r.pick(central) : r.pick(central.slice(4));
    if (
      add('russian-central-asian', {
        primary: `${g} ${p} ${f.toUpperCase()}`,
        aliases: r.next() < 0.3 && other !== `${g} ${p} ${f}` ? [{ name: other, quality: 'Good' }] : [],
        nationality: nationality === 'Russian Federation' && r.next() < 0.5 ? 'Russia' : nationality,
        country,
        parts: { cyrillic },
      })
    )
      made++;
  }
}

function arabicEntries(r: Rng, add: Add): void {
  const nationalities: [string, string][] = [
    ['Iraq', 'IQ'],
    ['Syria', 'SY'],
    ['Yemen', 'YE'],
    ['Egypt', 'EG'],
    ['Lebanon', 'LB'],
    ['Jordan', 'JO'],
    ['Libya', 'LY'],
    ['Iran', 'IR'],
    ['Sudan', 'SD'],
  ];
  const given = Object.keys(listed.ARABIC_GIVEN_SPELLINGS);
  let made = 0;
  while (made < 25) {
    const name = r.pick(given);
    const father = r.pick(given.filter((g) => g !== name));
    const grandfather = r.next() < 0.5 ? r.pick(given.filter((g) => g !== father)) : '';
    const family = r.pick(listed.ARABIC_FAMILY_PASSPORT);
    const [nationality, country] = r.pick(nationalities);
    const aliases: TestEntry['aliases'] = [];
    if (r.next() < 0.3) aliases.push({ name: `${name} al-${family}`, quality: 'Good' });
    if (r.next() < 0.5) aliases.push({ name: `Abu ${father}`, quality: 'Low' });
    const primary = [name, father, grandfather, `al-${family}`].filter((p) => p !== '').join(' ');
    if (
      add('arabic-transliteration', {
        primary,
        aliases,
        nationality,
        country,
        parts: { name, father, grandfather, family },
      })
    )
      made++;
  }
}

function chineseEntries(r: Rng, add: Add): void {
  let made = 0;
  while (made < 30) {
    const short = made < 16;
    // A few entries with 吕 (Lü): passports write LYU since 2012, older ones LU, the lists LV.
    const surname = made % 8 === 3 ? '吕' : r.pick(data.CHINESE_SURNAMES.slice(0, 40));
    const han =
      surname +
      (short
        ? r.pick(listed.CHINESE_SHORT_GIVEN)
        : r.pick(listed.CHINESE_LISTED_GIVEN) + r.pick(listed.CHINESE_SHORT_GIVEN));
    const [family, ...given] = upperPinyin(han);
    const national = r.next() < 0.85;
    if (
      add('chinese', {
        primary: `${family} ${titleCase(given.join(''))}`,
        han,
        aliases: [],
        ...(national ? { nationality: 'China' } : {}),
        country: 'CN',
        parts: { kind: 'chinese' },
      })
    )
      made++;
  }
}

function spanishEntries(r: Rng, add: Add): void {
  let made = 0;
  while (made < 28) {
    const portuguese = made >= 16;
    const families = portuguese ? listed.PORTUGUESE_FAMILY_PASSPORT : listed.SPANISH_FAMILY_PASSPORT;
    const given = r.pick(portuguese ? listed.PORTUGUESE_COMPOUND_GIVEN : listed.SPANISH_COMPOUND_GIVEN);
    const first = r.pick(families);
    const second = r.pick(families.filter((f) => f !== first));
    const particle = portuguese && r.next() < 0.5 ? r.pick(['da', 'de', 'dos']) : '';
    const [nationality, country] = portuguese
      ? ['Brazil', 'BR']
      : r.pick([
          ['Venezuela', 'VE'],
          ['Spain', 'ES'],
          ['Cuba', 'CU'],
          ['Nicaragua', 'NI'],
        ]);
    const primary = [given, particle, first.toUpperCase(), second.toUpperCase()].filter((p) => p !== '');
    if (
      add('spanish-portuguese', {
        primary: primary.join(' '),
        aliases: [],
        nationality,
        country,
        parts: { given, first, second, particle, kind: portuguese ? 'portuguese' : 'spanish' },
      })
    )
      made++;
  }
}

const stripMarks = (text: string) => text.normalize('NFKD').replace(/\p{M}/gu, '');
const upper = (text: string) => stripMarks(text).toUpperCase();
const title = (text: string) =>
  text
    .split(' ')
    .map((w) => w.split('-').map(titleCase).join('-'))
    .join(' ');

/** The variants of the passport groups' entries, each as a passport or a form writes it. */
export function buildPassportVariants(entries: readonly TestEntry[]): Applicant[] {
  const r = random(530);
  const variants: Applicant[] = [];
  for (const entry of entries) {
    if (entry.parts === undefined) continue;
    // Most applicants live where they are nationals; some apply from elsewhere.
    const add = (kind: string, nameEn: string, name = '') =>
      variants.push({
        label: `${entry.reference} ${entry.group}/${kind}`,
        name,
        name_en: nameEn,
        birthday: birthdayFor(entry, r),
        country: r.next() < 0.85 ? (entry.country ?? 'DE') : r.pick(['DE', 'TR', 'AE', 'GB', 'US', 'TH']),
      });
    const writers: Record<string, (entry: TestEntry, add: AddVariant, r: Rng) => void> = {
      'russian-central-asian': russianVariants,
      'arabic-transliteration': arabicVariants,
      chinese: chineseVariants,
      'spanish-portuguese': spanishVariants,
      'myanmar-short': myanmarVariants,
    };
    writers[entry.group]!(entry, add, r);
  }
  return variants;
}

type AddVariant = (kind: string, nameEn: string, name?: string) => void;

function russianVariants(entry: TestEntry, add: AddVariant): void {
  const cyrillic = entry.parts!['cyrillic']!;
  const parts = (system: System) => transliterate(system, cyrillic).split(' ') as [string, string, string];
  const [gi, pi, fi] = parts('icao');
  const [g97, , f97] = parts('passport1997');
  const [ge, , fe] = parts('english');
  // The Latin page of a passport has the given name and the surname, no patronymic.
  add('passport-icao', upper(`${gi} ${fi}`));
  add('passport-1997', upper(`${g97} ${f97}`));
  add('form-english', `${ge} ${fe}`);
  add('form-surname-first', upper(`${fi} ${gi}`));
  add('full-icao', upper(`${gi} ${pi} ${fi}`));
}

function arabicVariants(entry: TestEntry, add: AddVariant, r: Rng): void {
  const { name, father, grandfather, family } = entry.parts as Record<string, string>;
  const spell = (given: string) =>
    r.next() < 0.85 ? r.pick(listed.ARABIC_GIVEN_SPELLINGS[given] ?? [given]) : given;
  const familyAs = () => {
    const base = r.pick([
      family!,
      family!.replace(/i$/, 'y'),
      family!.replace(/ou/, 'u'),
      family!.replace(/^Q/, 'K'),
    ]);
    return r.pick([`Al${base.toLowerCase()}`, `Al ${base}`, `El-${base}`, base, `al-${base}`]);
  };
  add('passport-given-family', upper(`${spell(name!)} ${familyAs()}`));
  add('passport-three-parts', upper(`${spell(name!)} ${spell(father!)} ${familyAs()}`));
  const full = [spell(name!), spell(father!), grandfather === '' ? '' : spell(grandfather!), familyAs()];
  add('form-full', full.filter((p) => p !== '').join(' '));
  add('form-family-first', upper(`${familyAs()} ${spell(name!)} ${spell(father!)}`));
}

function chineseVariants(entry: TestEntry, add: AddVariant): void {
  const han = entry.han!;
  const [family, ...given] = upperPinyin(han).map((s) => s.replace('V', 'YU'));
  const surname = family!;
  const joined = given.join('');
  add('passport', `${surname} ${joined}`);
  add('form-given-first', `${titleCase(joined)} ${titleCase(surname)}`);
  add('characters-and-passport', `${surname} ${joined}`, han);
  if (given.length > 1) add('form-hyphenated', `${titleCase(surname)} ${given.map(titleCase).join('-')}`);
  else add('form-comma', `${surname}, ${titleCase(joined)}`);
  if (family === 'LYU') add('passport-before-2012', `LU ${joined}`);
}

function spanishVariants(entry: TestEntry, add: AddVariant): void {
  const { given, first, second, particle, kind } = entry.parts as Record<string, string>;
  const [g1] = given!.split(' ');
  if (kind === 'spanish') {
    add('form-one-given-one-surname', upper(`${g1} ${first}`));
    add('form-given-names-first-surname', `${given} ${first}`);
    add('form-one-given-both-surnames', stripMarks(`${g1} ${first} ${second}`));
    add('id-surnames-first', upper(`${first} ${second} ${given}`));
    add('form-hyphenated-y', `${given} ${first}-${second}`);
    add('form-y', title(`${given} ${first} y ${second}`));
  } else {
    // Portuguese: the last surname is the one in use.
    add('form-one-given-last-surname', upper(`${g1} ${second}`));
    add('form-no-particle', stripMarks(`${given} ${first} ${second}`));
    add('form-given-names-last-surname', `${given} ${second}`);
    add(
      'form-one-given-both-surnames',
      upper(`${g1} ${particle === '' ? '' : `${particle} `}${first} ${second}`),
    );
    add('form-e', `${given} ${first} e ${second}`);
  }
}

function myanmarVariants(entry: TestEntry, add: AddVariant): void {
  add('passport', upper(entry.primary));
  add('form-joined', title(entry.primary.replace(' ', '')));
}

/**
 * 10,000 ordinary applicants of the passport groups, as their passports write them: Russian and
 * Central Asian names (ICAO or the 1997 rules, given name and surname), Arabic names (given and
 * family name, or given, father's and family name), Spanish and Portuguese names (one or two
 * surnames) and short Chinese names (one-character given names) with their characters.
 */
export function buildPassportOrdinary(count: number): Applicant[] {
  const r = random(5300);
  const people: Applicant[] = [];
  const add = (label: string, name: string, nameEn: string, country: string) =>
    people.push({ label, name, name_en: nameEn, birthday: r.date(1950, 2006), country });
  const russian = (
    label: string,
    names: { male: string[]; female: string[] },
    surnames: string[],
    country: () => string,
  ) => {
    const female = r.next() < 0.5;
    const given = r.pick(female ? names.female : names.male);
    const family = female ? feminine(r.pick(surnames)) : r.pick(surnames);
    const patronymic = r.pick(data.RUSSIAN_PATRONYMICS_CYRILLIC);
    const cyrillic =
      r.next() < 0.1
        ? `${given} ${female ? patronymic.replace(/ич$/, 'на') : patronymic} ${family}`
        : `${given} ${family}`;
    add(label, '', upper(transliterate(r.next() < 0.6 ? 'icao' : 'passport1997', cyrillic)), country());
  };
  while (people.length < count) {
    const roll = r.next();
    if (roll < 0.25) {
      russian('russian', data.RUSSIAN_GIVEN_NAMES_CYRILLIC, data.RUSSIAN_SURNAMES_CYRILLIC, () => 'RU');
    } else if (roll < 0.35) {
      russian(
        'central-asian',
        data.CENTRAL_ASIAN_GIVEN_NAMES_CYRILLIC,
        data.CENTRAL_ASIAN_SURNAMES_CYRILLIC,
        () => r.pick(['KZ', 'UZ', 'KG', 'TJ']),
      );
    } else if (roll < 0.55) {
      const parts = [r.pick(data.ARABIC_GIVEN_NAMES)];
      if (r.next() < 0.4) parts.push(r.pick(data.ARABIC_GIVEN_NAMES));
      parts.push(r.pick(data.ARABIC_FAMILY_NAMES));
      add('arabic', '', upper(parts.join(' ')), r.pick(['EG', 'JO', 'IQ', 'SA', 'AE', 'LB', 'SY']));
    } else if (roll < 0.67) {
      const surnames = [r.pick(data.SPANISH_SURNAMES)];
      if (r.next() < 0.7) surnames.push(r.pick(data.SPANISH_SURNAMES));
      add(
        'spanish',
        '',
        upper(`${r.pick(data.SPANISH_GIVEN_NAMES)} ${surnames.join(' ')}`),
        r.pick(['ES', 'VE', 'CU', 'NI']),
      );
    } else if (roll < 0.75) {
      const surnames = [r.pick(data.PORTUGUESE_SURNAMES)];
      if (r.next() < 0.6) surnames.unshift(r.pick(data.PORTUGUESE_SURNAMES));
      if (r.next() < 0.3) surnames.unshift(r.pick(['da', 'de', 'dos']));
      add('portuguese', '', upper(`${r.pick(data.PORTUGUESE_GIVEN_NAMES)} ${surnames.join(' ')}`), 'BR');
    } else {
      const han = r.pick(data.CHINESE_SURNAMES) + r.pick(data.CHINESE_GIVEN_CHARACTERS);
      const [surname, given] = upperPinyin(han).map((s) => s.replace('V', 'YU'));
      add('chinese-short', han, `${surname} ${given}`, 'CN');
    }
  }
  return people;
}
