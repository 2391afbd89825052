import type { PopulationCase } from './population.ts';
import { ADDRESS_CASES } from './addresses.ts';
import { PASSPORT_CASES } from './passports.ts';
import { PHONE_CASES } from './phones.ts';
import { PINYIN_CASES } from './pinyin.ts';

/** Every case of the second round (issue 25), population by population. */
export const SECOND_ROUND: readonly PopulationCase[] = [
  ...PHONE_CASES,
  ...PINYIN_CASES,
  ...PASSPORT_CASES,
  ...ADDRESS_CASES,
];
