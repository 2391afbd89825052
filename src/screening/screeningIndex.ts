import { canonicalDocumentNumber } from '../record/canonical.ts';
import { nameKeys } from './blockingKeys.ts';
import { countryCodeOf, nationalityGroup } from './countries.ts';
import { jaroWinkler } from './jaroWinkler.ts';
import type { ListEntry, ListName, ListedName } from './listEntry.ts';
import { foldToken, normaliseName } from './normaliseName.ts';

/**
 * The lists in force, indexed for screening: every listed name and alias normalised once, blocked
 * by key (blockingKeys.ts), and every listed document number by its canonical form. `screen` scores
 * an applicant's `name` and `name_en` against the names that share a key with them, lets the date
 * of birth and nationality confirm or exclude, and returns the entries at or above the threshold.
 */
export interface IndexedList {
  list: ListName;
  versionId: string;
  entries: readonly ListEntry[];
}

/** What of an application screening reads (decrypted, in memory only). */
export interface Applicant {
  name?: string | undefined;
  name_en?: string | undefined;
  birthday?: string | undefined;
  country?: string | undefined;
  cert_id?: string | undefined;
}

export type ApplicantField = 'name' | 'name_en' | 'birthday' | 'country' | 'cert_id';

export interface ScreeningMatch {
  list: ListName;
  version_id: string;
  reference: string;
  /** The listed name (or alias) that matched; for a document hit, the entry's primary name. */
  matched_name: string;
  matched_kind: ListedName['kind'] | 'document';
  /** 0 to 1, three decimals. */
  score: number;
  /** The applicant's fields that matched, for the reviewer's highlight. */
  fields: ApplicantField[];
  /** Set when the entry is a PEP's (`pep`) or a relative's or close associate's (`rca`): no hit. */
  pep?: 'pep' | 'rca';
}

interface IndexedName {
  entry: number;
  name: ListedName;
  tokens: string[];
  folded: string[];
  joined: string;
  han: string;
  /** At most SHORT_NAME_LETTERS letters. */
  short: boolean;
}

interface IndexedEntry {
  list: ListName;
  versionId: string;
  entry: ListEntry;
  /** Date ranges of birth, `YYYY-MM-DD`. */
  birthDates: { from: string; to: string }[];
  nationalities: Set<string>;
}

interface Query {
  field: 'name' | 'name_en';
  tokens: string[];
  folded: string[];
  rotations: string[];
  han: string;
}

/** Token pairs below this similarity count as unmatched (no partial credit for noise). */
const TOKEN_FLOOR = 0.8;
/** Token pairs less alike than this are compared folded too (foldToken), for a little less. */
const FOLD_BELOW = 0.92;
const FOLDED_FACTOR = 0.97;
/** Per character of difference in length, for tokens and whole names. */
const LENGTH_PENALTY = 0.03;
/** An unmatched listed token, when an applicant's token is unmatched too, weighs a third. */
const UNMATCHED_LISTED_WEIGHT = 0.35;
/**
 * A listed part the applicant left out while every part given agrees (a patronymic, a middle
 * name, a second surname: the Latin page of a Russian passport has no patronymic) costs this,
 * whatever its length: absent, not wrong.
 */
const ABSENT_PART = 0.02;
/** Pairs that agree this well count as agreeing parts, for ABSENT_PART. */
const AGREEING_PAIR = 0.85;
/**
 * A short name (two short parts, as many Chinese names are: `LI Ming`, `Min TUN`) has namesakes
 * by the thousand: it needs the date of birth or nationality to agree when the entry has them,
 * and this much more than the threshold when the entry has neither.
 */
const SHORT_NAME_LETTERS = 8;
const SHORT_NAME_MARGIN = 0.06;
/** A low-quality or weak alias matches with this factor. */
const WEAK_ALIAS_FACTOR = 0.95;
const DOB_CONFIRMS = 0.02;
const NATIONALITY_CONFIRMS = 0.02;
const NATIONALITY_CONTRADICTS = 0.05;
/** The shortest document number compared: shorter ones are not specific enough. */
const MIN_DOCUMENT_LENGTH = 5;

export function documentKey(number: string): string {
  return canonicalDocumentNumber(number).replace(/[^0-9A-Z]/g, '');
}

/** The orders in which a name may have been written: as is, surname moved to the front or back. */
function rotations(tokens: string[]): string[] {
  if (tokens.length < 2) return [tokens.join('')];
  const last = tokens[tokens.length - 1]!;
  return [tokens.join(''), last + tokens.slice(0, -1).join(''), tokens.slice(1).join('') + tokens[0]!];
}

export class ScreeningIndex {
  readonly entries: IndexedEntry[] = [];
  readonly names: IndexedName[] = [];
  private readonly postings = new Map<string, number[]>();
  private readonly documents = new Map<string, number[]>();
  private marks = new Uint8Array(0);

  constructor(lists: readonly IndexedList[]) {
    for (const { list, versionId, entries } of lists) {
      for (const entry of entries) this.addEntry(list, versionId, entry);
    }
    this.marks = new Uint8Array(this.names.length);
  }

  get nameCount(): number {
    return this.names.length;
  }

  private addEntry(list: ListName, versionId: string, entry: ListEntry): void {
    const index = this.entries.length;
    const nationalities = new Set<string>();
    for (const text of entry.nationalities) {
      const code = countryCodeOf(text);
      if (code !== undefined) nationalities.add(nationalityGroup(code));
    }
    this.entries.push({ list, versionId, entry, birthDates: entry.birthDates, nationalities });
    for (const name of entry.names) {
      const { tokens, han } = normaliseName(name.text);
      if (tokens.length === 0 && han === '') continue;
      const id = this.names.length;
      const joined = tokens.join('');
      const folded = tokens.map(foldToken);
      const short = joined.length <= SHORT_NAME_LETTERS;
      this.names.push({ entry: index, name, tokens, folded, joined, han, short });
      const keys = new Set(nameKeys(folded, joined, han, 'listed'));
      for (const key of keys) this.post(this.postings, key, id);
    }
    for (const document of entry.documents) {
      const key = documentKey(document.number);
      if (key.length >= MIN_DOCUMENT_LENGTH) this.post(this.documents, key, index);
    }
  }

  private post(map: Map<string, number[]>, key: string, id: number): void {
    const list = map.get(key);
    if (list === undefined) map.set(key, [id]);
    else if (list[list.length - 1] !== id) list.push(id);
  }

  /** The entries the applicant matches at or above `threshold`, best first, one per entry. */
  screen(applicant: Applicant, threshold: number, options: { exhaustive?: boolean } = {}): ScreeningMatch[] {
    const best = new Map<number, ScreeningMatch>();
    const keep = (entryIndex: number, match: ScreeningMatch) => {
      const held = best.get(entryIndex);
      // The same score for the characters of `name` on the name in original script says more.
      const better =
        held === undefined ||
        match.score > held.score ||
        (match.score === held.score &&
          match.matched_kind === 'original_script' &&
          match.fields[0] === 'name');
      if (better) best.set(entryIndex, match);
    };
    for (const query of this.queries(applicant)) {
      // Exhaustive: every name, the bench's baseline for what the blocking saves (and misses).
      const candidates = options.exhaustive === true ? this.names.keys() : this.candidates(query);
      for (const nameId of candidates) {
        const indexed = this.names[nameId]!;
        const floor = threshold - NATIONALITY_CONFIRMS - DOB_CONFIRMS;
        const nameScore = scoreName(query, indexed, floor);
        if (nameScore < floor) continue;
        const entry = this.entries[indexed.entry]!;
        const judged = judge(entry, applicant, nameScore, indexed.short);
        if (judged === undefined || judged.score < threshold) continue;
        if (judged.uncorroborated && nameScore < threshold + SHORT_NAME_MARGIN) continue;
        keep(indexed.entry, {
          list: entry.list,
          version_id: entry.versionId,
          reference: entry.entry.reference,
          matched_name: indexed.name.text,
          matched_kind: indexed.name.kind,
          score: round(judged.score),
          fields: [query.field, ...judged.fields],
          ...pepOf(entry.entry),
        });
      }
    }
    if (applicant.cert_id !== undefined) {
      for (const entryIndex of this.documents.get(documentKey(applicant.cert_id)) ?? []) {
        const entry = this.entries[entryIndex]!;
        keep(entryIndex, {
          list: entry.list,
          version_id: entry.versionId,
          reference: entry.entry.reference,
          matched_name: entry.entry.names[0]?.text ?? '',
          matched_kind: 'document',
          score: 1,
          fields: ['cert_id'],
          ...pepOf(entry.entry),
        });
      }
    }
    return [...best.values()].sort((a, b) => b.score - a.score || a.reference.localeCompare(b.reference));
  }

  private queries(applicant: Applicant): Query[] {
    const queries: Query[] = [];
    for (const field of ['name', 'name_en'] as const) {
      const text = applicant[field];
      if (text === undefined || text.trim() === '') continue;
      const { tokens, han } = normaliseName(text);
      if (tokens.length === 0 && han === '') continue;
      const rotated = rotations(tokens);
      // name_en is often the pinyin of name: one query is enough then.
      if (queries.some((q) => q.rotations[0] === rotated[0] && q.han === han)) continue;
      queries.push({ field, tokens, folded: tokens.map(foldToken), rotations: rotated, han });
    }
    return queries;
  }

  /** The names that share a blocking key with the query (blockingKeys.ts). */
  private candidates(query: Query): number[] {
    const marks = this.marks;
    const result: number[] = [];
    for (const key of nameKeys(query.folded, query.rotations, query.han, 'query')) {
      for (const id of this.postings.get(key) ?? []) {
        if (marks[id] === 1) continue;
        marks[id] = 1;
        result.push(id);
      }
    }
    for (const id of result) marks[id] = 0;
    return result;
  }
}

const pepOf = (entry: ListEntry) => (entry.pep === undefined ? {} : { pep: entry.pep.role });

const round = (score: number) => Math.round(score * 1000) / 1000;

/**
 * How alike a query and a listed name are, 0 to 1. The whole-name comparisons are skipped when
 * they could not raise the score to `floor` (the least that can still be a hit).
 */
export function scoreName(query: Query, listed: IndexedName, floor = 0): number {
  if (query.han !== '' && query.han === listed.han) return weighted(1, listed);
  let score = tokenSetScore(query, listed);
  if (score < 1) {
    for (const rotation of query.rotations) {
      score = Math.max(score, joinedScore(rotation, listed.joined, Math.max(score, floor)));
    }
  }
  return weighted(score, listed);
}

const weighted = (score: number, listed: IndexedName) =>
  listed.name.weak ? score * WEAK_ALIAS_FACTOR : score;

const letterCounts = new Int32Array(128);

/**
 * The most Jaro could give two strings: their letters in common (as many as both have of each),
 * as if all were matched in order. Linear, where Jaro is quadratic in the window.
 */
function jaroBound(a: string, b: string): number {
  for (let i = 0; i < a.length; i++) letterCounts[a.charCodeAt(i) & 127]!++;
  let common = 0;
  for (let i = 0; i < b.length; i++) {
    const c = b.charCodeAt(i) & 127;
    if (letterCounts[c]! > 0) {
      letterCounts[c]!--;
      common++;
    }
  }
  for (let i = 0; i < a.length; i++) letterCounts[a.charCodeAt(i) & 127] = 0;
  return common === 0 ? 0 : (common / a.length + common / b.length + 1) / 3;
}

/**
 * The whole name as one string (`ZHANG XIAOMING`, `Zhang Xiao-Ming`): plain Jaro, since a prefix
 * bonus would make every `zhangwei...` close to every other one, less for each character of
 * difference in length; 0 when it could not exceed `need`.
 */
function joinedScore(a: string, b: string, need: number): number {
  const penalty = Math.abs(a.length - b.length) * LENGTH_PENALTY;
  if (1 - penalty <= need || jaroBound(a, b) - penalty <= need) return 0;
  return jaroWinkler(a, b, 0) - penalty;
}

/** Jaro-Winkler, less for each character of difference in length (`zhi` is not `zhuoyu`). */
function tokenScore(a: string, b: string): number {
  return jaroWinkler(a, b) - Math.abs(a.length - b.length) * LENGTH_PENALTY;
}

/**
 * Tokens paired best-first by Jaro-Winkler, each used once; the score is the paired similarity
 * weighted by token length over all tokens, an unmatched applicant token counting in full and an
 * unmatched listed one a third. When every applicant token (two at least) pairs with a listed one
 * that agrees, the listed tokens left over are parts the applicant did not write (ALEKSEI
 * KRUTOIARSKII for `KRUTOYARSKY, Aleksey Yuryevich`): each costs ABSENT_PART instead.
 */
export function tokenSetScore(
  q: { tokens: string[]; folded: string[] },
  l: { tokens: string[]; folded: string[] },
): number {
  const query = q.tokens;
  const listed = l.tokens;
  if (query.length === 0 || listed.length === 0) return 0;
  const pairs: [number, number, number][] = [];
  for (let i = 0; i < query.length; i++) {
    for (let j = 0; j < listed.length; j++) {
      let s = tokenScore(query[i]!, listed[j]!);
      if (s < FOLD_BELOW) s = Math.max(s, FOLDED_FACTOR * tokenScore(q.folded[i]!, l.folded[j]!));
      // Alike already, and one name folded (Muhammed, Mohammed): the folded score, not less.
      else if (s < FOLDED_FACTOR && q.folded[i] === l.folded[j]) s = FOLDED_FACTOR;
      if (s >= TOKEN_FLOOR) pairs.push([s, i, j]);
    }
  }
  pairs.sort((a, b) => b[0] - a[0]);
  const usedQ = new Uint8Array(query.length);
  const usedL = new Uint8Array(listed.length);
  let matched = 0;
  let pairedLength = 0;
  let agreeing = 0;
  for (const [s, i, j] of pairs) {
    if (usedQ[i] === 1 || usedL[j] === 1) continue;
    usedQ[i] = 1;
    usedL[j] = 1;
    const length = query[i]!.length + listed[j]!.length;
    matched += s * length;
    pairedLength += length;
    if (s >= AGREEING_PAIR) agreeing++;
  }
  let total = 0;
  for (const token of query) total += token.length;
  for (let j = 0; j < listed.length; j++) {
    total += usedL[j] === 1 ? listed[j]!.length : listed[j]!.length * UNMATCHED_LISTED_WEIGHT;
  }
  const score = matched / total;
  const absent = listed.length - query.length;
  if (agreeing < 2 || agreeing < query.length || absent <= 0) return score;
  return Math.max(score, matched / pairedLength - absent * ABSENT_PART);
}

/**
 * The date of birth and the nationality: a listed date the applicant's birthday falls outside of
 * excludes the entry (a namesake); one it falls in confirms. A listed nationality confirms or
 * lowers the score, not more: nationality and residence differ often. A short name must have one
 * of them agree when the entry has any (SHORT_NAME_LETTERS); `uncorroborated` when it has none.
 */
function judge(
  entry: IndexedEntry,
  applicant: Applicant,
  nameScore: number,
  short: boolean,
): { score: number; fields: ApplicantField[]; uncorroborated: boolean } | undefined {
  let score = nameScore;
  const fields: ApplicantField[] = [];
  const birthday = applicant.birthday;
  if (birthday !== undefined && entry.birthDates.length > 0) {
    if (!entry.birthDates.some((d) => birthday >= d.from && birthday <= d.to)) return undefined;
    score += DOB_CONFIRMS;
    fields.push('birthday');
  }
  if (applicant.country !== undefined && entry.nationalities.size > 0) {
    if (entry.nationalities.has(nationalityGroup(applicant.country))) {
      score += NATIONALITY_CONFIRMS;
      fields.push('country');
    } else {
      score -= NATIONALITY_CONTRADICTS;
    }
  }
  const listsAny =
    entry.birthDates.length > 0 || entry.nationalities.size > 0 || entry.entry.documents.length > 0;
  // A document that agrees is a hit of its own (score 1), whatever the name.
  if (short && listsAny && fields.length === 0) return undefined;
  return { score: Math.min(1, score), fields, uncorroborated: short && !listsAny };
}
