/**
 * A sanctions list as the service keeps it, whatever its published format: the individuals of one
 * list version, each with the names to screen against (primary, aliases, the name in its original
 * script), dates of birth, nationalities and identity documents. All of it is published list data,
 * none of it an applicant's.
 */

/**
 * The lists the service imports (individuals only): the UN's, OFAC's SDN, the EU's consolidated
 * financial sanctions list, the UK Sanctions List (FCDO) and OpenSanctions' FollowTheMoney entities
 * (sanctions and PEPs).
 */
export const LIST_NAMES = ['un', 'ofac-sdn', 'eu', 'uk', 'opensanctions'] as const;
export type ListName = (typeof LIST_NAMES)[number];

export function isListName(value: string): value is ListName {
  return (LIST_NAMES as readonly string[]).includes(value);
}

export interface ListedName {
  text: string;
  kind: 'primary' | 'alias' | 'original_script';
  /** A low-quality (UN) or weak (OFAC) alias: screened, with a lower score. */
  weak: boolean;
}

/** A name in another script than Latin (Cyrillic, Arabic, Han): a name in original script. */
const NON_LATIN = /[^\p{Script=Latin}\p{Script=Common}\p{Script=Inherited}]/u;

/** The kind of the `index`th name of an entry whose list does not say which is primary. */
export function kindOf(text: string, index: number): ListedName['kind'] {
  return index === 0 ? 'primary' : NON_LATIN.test(text) ? 'original_script' : 'alias';
}

/** A date of birth as a range of days (inclusive), `YYYY-MM-DD`: exact, a year, or between years. */
export interface ListedBirthDate {
  /** As the list wrote it, for the reviewer. */
  text: string;
  from: string;
  to: string;
}

export interface ListedDocument {
  type: string;
  number: string;
  country: string | null;
}

/** A position a politically exposed person holds or held, as the list gives it. */
export interface ListedPosition {
  title: string;
  country: string | null;
  /** Dates as the list wrote them (`2019`, `2019-05`, `2019-05-12`), when it gives them. */
  start: string | null;
  end: string | null;
}

/** A relative's or close associate's tie to a PEP: the relationship and the PEP's entry. */
export interface ListedRelation {
  relationship: string;
  reference: string;
  /** The related person's name, when the file lists them. */
  name: string | null;
}

/**
 * A politically exposed person (`pep`) or a relative or close associate of one (`rca`): a match
 * is shown to the reviewer and weighed by the risk rating, and holds nothing (docs/SCREENING.md).
 */
export interface ListedPep {
  role: 'pep' | 'rca';
  positions: ListedPosition[];
  relations: ListedRelation[];
}

export interface ListEntry {
  /** The list's own reference: the UN's `REFERENCE_NUMBER` (`QDi.001`), OFAC's `uid`. */
  reference: string;
  names: ListedName[];
  birthDates: ListedBirthDate[];
  /** As the list wrote them (`China`, `Korea, North`); countries.ts reads them as codes. */
  nationalities: string[];
  documents: ListedDocument[];
  /** Set on a PEP list's entry: a match is a PEP match, not a sanctions hit. */
  pep?: ListedPep;
}

/** What the file says of itself: the date it was generated or published, when it says so. */
export interface ListHeader {
  publishedAt: string | null;
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const pad = (n: number) => String(n).padStart(2, '0');

function lastDay(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** A whole year, widened by `slack` years on each side (an approximate date). */
export function yearRange(text: string, fromYear: number, toYear: number, slack = 0): ListedBirthDate {
  return { text, from: `${fromYear - slack}-01-01`, to: `${toYear + slack}-12-31` };
}

/** A whole month of `year` (1 to 12). */
export function monthRange(text: string, year: number, month: number): ListedBirthDate {
  return {
    text,
    from: `${year}-${pad(month)}-01`,
    to: `${year}-${pad(month)}-${pad(lastDay(year, month))}`,
  };
}

/**
 * Reads the date forms the lists use: `1964-03-13`, `13 Mar 1964`, `Mar 1964`, `1964`,
 * `circa 1964`, `1962 to 1964`. Anything else is kept for the reviewer but matches nothing.
 */
export function readBirthDate(raw: string): ListedBirthDate | undefined {
  const text = raw.trim();
  const circa = /^(circa|approximately|approx\.?|about|c\.)\s*/i.test(text);
  const body = text.replace(/^(circa|approximately|approx\.?|about|c\.)\s*/i, '');
  let m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(body);
  if (m !== null) {
    const day = `${m[1]}-${m[2]}-${m[3]}`;
    return circa ? yearRange(text, Number(m[1]), Number(m[1]), 1) : { text, from: day, to: day };
  }
  m = /^(\d{1,2}) ([A-Za-z]{3})[a-z]* (\d{4})$/.exec(body);
  if (m !== null) {
    const month = MONTHS.indexOf(m[2]!.toLowerCase()) + 1;
    if (month === 0) return undefined;
    const day = `${m[3]}-${pad(month)}-${pad(Number(m[1]))}`;
    return circa ? yearRange(text, Number(m[3]), Number(m[3]), 1) : { text, from: day, to: day };
  }
  m = /^([A-Za-z]{3})[a-z]* (\d{4})$/.exec(body);
  if (m !== null) {
    const month = MONTHS.indexOf(m[1]!.toLowerCase()) + 1;
    if (month === 0) return undefined;
    return monthRange(text, Number(m[2]), month);
  }
  m = /^(\d{4})\s*(?:to|-|–)\s*(\d{4})$/.exec(body);
  if (m !== null) return yearRange(text, Number(m[1]), Number(m[2]), circa ? 1 : 0);
  m = /^(\d{4})$/.exec(body);
  if (m !== null) return yearRange(text, Number(m[1]), Number(m[1]), circa ? 1 : 0);
  return undefined;
}
