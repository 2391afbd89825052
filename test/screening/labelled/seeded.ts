import { pinyin } from 'pinyin-pro';
import type { TestEntry } from './buildLabelledSet.ts';

/** A seeded generator (mulberry32): the labelled set is written the same every time. */
export function random(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)]!;
  const date = (fromYear: number, toYear: number) => {
    const year = fromYear + Math.floor(next() * (toYear - fromYear + 1));
    const month = 1 + Math.floor(next() * 12);
    const day = 1 + Math.floor(next() * 28);
    return `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
  };
  return { next, pick, date };
}

export const upperPinyin = (han: string) =>
  pinyin(han, { toneType: 'none', type: 'array', surname: 'head', v: true }).map((s) => s.toUpperCase());

/** A birthday the entry's date of birth allows (or any, when it has none). */
export function birthdayFor(entry: TestEntry, r: ReturnType<typeof random>): string {
  if (entry.dob === undefined) return r.date(1950, 1995);
  if ('exact' in entry.dob) return entry.dob.exact;
  return r.date(entry.dob.year, entry.dob.year);
}

export const titleCase = (s: string) => s[0]! + s.slice(1).toLowerCase();
