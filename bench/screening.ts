import { pinyin } from 'pinyin-pro';
import type { ListEntry, ListName } from '../src/screening/listEntry.ts';
import { ScreeningIndex } from '../src/screening/screeningIndex.ts';
import { labelledApplicants } from '../test/screening/labelledSet.ts';
import * as data from '../test/screening/labelled/nameData.ts';
import * as listed from '../test/screening/labelled/listedNames.ts';
import { median } from './load.ts';

/**
 * Screening one applicant against 30,000 listed names (one list), then against 100,000 (all five
 * lists together, issue 53's target: p99 at most 5 ms) (10,000 made-up entries of three names each,
 * drawn from the same name pools as the labelled set, common names included so that blocks are as
 * crowded as on a real list): the time per applicant with the index, median and p99, and the same
 * applicants scored against every name (no index) as the baseline in the same run.
 */
export function syntheticList(entries: number): ListEntry[] {
  let seed = 42;
  const next = () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
    return seed / 2_147_483_648;
  };
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)]!;
  const list: ListEntry[] = [];
  const entry = (names: [string, ListEntry['names'][number]['kind']][]): void => {
    list.push({
      reference: `BENCH.${list.length}`,
      names: names.map(([text, kind]) => ({ text, kind, weak: false })),
      birthDates: [{ text: '', from: '1960-01-01', to: '1960-12-31' }],
      nationalities: [],
      documents: [{ type: 'Passport', number: `BP${list.length}00000`, country: null }],
    });
  };
  while (list.length < entries) {
    const roll = next();
    if (roll < 0.35) {
      const [given, father, family] = [
        pick(listed.ARABIC_GIVEN),
        pick(listed.ARABIC_GIVEN),
        pick(listed.ARABIC_FAMILY),
      ];
      entry([
        [`${given} ${father} al-${family}${list.length % 97}`, 'primary'],
        [`${given} ${family}`, 'alias'],
        [`Abu ${father}`, 'alias'],
      ]);
    } else if (roll < 0.55) {
      const han =
        pick(data.CHINESE_SURNAMES) + pick(data.CHINESE_GIVEN_CHARACTERS) + pick(listed.CHINESE_LISTED_GIVEN);
      const [surname, ...given] = pinyin(han, { toneType: 'none', type: 'array', surname: 'head' });
      entry([
        [`${surname} ${given.join('')}`, 'primary'],
        [han, 'original_script'],
        [`${given.join(' ')} ${surname}`, 'alias'],
      ]);
    } else if (roll < 0.7) {
      const [given, family] = [pick(listed.RUSSIAN_GIVEN), pick(listed.RUSSIAN_FAMILY)];
      entry([
        [`${given} ${pick(listed.RUSSIAN_PATRONYMIC)} ${family}`, 'primary'],
        [`${family} ${given}`, 'alias'],
        [`${given[0]}. ${family}`, 'alias'],
      ]);
    } else if (roll < 0.85) {
      const name = `${pick(data.KOREAN_SURNAMES)} ${pick(listed.KOREAN_LISTED_GIVEN)}`;
      entry([
        [name, 'primary'],
        [name.replace('-', ''), 'alias'],
        [`${pick(data.ENGLISH_GIVEN)} ${name.split(' ')[0]}`, 'alias'],
      ]);
    } else {
      const name = `${pick(listed.SPANISH_GIVEN)} ${pick(data.ENGLISH_SURNAMES)} ${pick(listed.SPANISH_FAMILY)}`;
      entry([
        [name, 'primary'],
        [`${pick(listed.EUROPEAN_GIVEN)} ${pick(listed.EUROPEAN_FAMILY)}`, 'alias'],
        [name.split(' ').reverse().join(' '), 'alias'],
      ]);
    }
  }
  return list;
}

/**
 * 100,000 listed names (33,334 entries of three names) shared out among the five lists as their
 * importers read them: the UN's and OFAC's with a date of birth and a document, the EU's and the UK's
 * with a nationality too, OpenSanctions' as PEPs (a position each, every fourth a relative) and
 * sanctions entries; each list a version of its own in the index, as in service.
 */
export function allListsSynthetic(names: number) {
  const lists: ListName[] = ['un', 'ofac-sdn', 'eu', 'uk', 'opensanctions'];
  const entries = syntheticList(Math.ceil(names / 3));
  return lists.map((list, l) => ({
    list,
    versionId: `bench-${list}`,
    entries: entries
      .filter((_, i) => i % lists.length === l)
      .map((entry, i): ListEntry => {
        if (list === 'eu' || list === 'uk') return { ...entry, nationalities: [i % 2 ? 'China' : 'Russia'] };
        if (list !== 'opensanctions' || i % 3 === 0) return entry;
        return {
          ...entry,
          documents: [],
          pep: {
            role: i % 4 === 0 ? 'rca' : 'pep',
            positions: [{ title: 'Member of Parliament', country: 'ru', start: '2016', end: null }],
            relations: [],
          },
        };
      }),
  }));
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;

type Applicant = ReturnType<typeof labelledApplicants>[number];

/**
 * Each applicant three times in a row, the fastest kept: on a shared machine (load above the
 * cores) a single time's tail is the scheduler's preemption, not screening's; three preemptions of
 * one applicant in a row are rare. The single times' p99 is kept too.
 */
function timeApplicants(index: ScreeningIndex, applicants: readonly Applicant[], runCount: number) {
  const time = (applicant: Applicant, exhaustive: boolean) => {
    const at = performance.now();
    index.screen(applicant, 0.9, { exhaustive });
    return performance.now() - at;
  };
  for (const applicant of applicants.slice(0, 200)) time(applicant, false); // warm-up
  // The process's CPU time of one screening too: what a preemption does not inflate.
  const cpuTime = (applicant: Applicant) => {
    const at = process.cpuUsage();
    index.screen(applicant, 0.9);
    const used = process.cpuUsage(at);
    return (used.user + used.system) / 1000;
  };
  const runs: { p50: number; p99: number; singleP99: number; cpuP99: number }[] = [];
  for (let run = 0; run < runCount; run++) {
    const best: number[] = [];
    const single: number[] = [];
    const cpu: number[] = [];
    for (const applicant of applicants) {
      const times = [time(applicant, false), time(applicant, false), time(applicant, false)];
      single.push(times[0]!);
      best.push(Math.min(...times));
      cpu.push(cpuTime(applicant));
    }
    best.sort((a, b) => a - b);
    single.sort((a, b) => a - b);
    cpu.sort((a, b) => a - b);
    runs.push({
      p50: percentile(best, 0.5),
      p99: percentile(best, 0.99),
      singleP99: percentile(single, 0.99),
      cpuP99: percentile(cpu, 0.99),
    });
  }
  return { runs, time };
}

const round = (ms: number) => Math.round(ms * 1000) / 1000;
/** Issue 53: screening one applicant against 100,000 listed names, p99. */
export const SCREEN_TARGET_MS = 5;

export async function screeningBenchmark(smoke: boolean) {
  const builtAt = performance.now();
  const index = new ScreeningIndex([{ list: 'un', versionId: 'bench', entries: syntheticList(10_000) }]);
  const buildMs = performance.now() - builtAt;
  const applicants = [...labelledApplicants('ordinary.tsv'), ...labelledApplicants('variants.tsv')].slice(
    0,
    smoke ? 500 : undefined,
  );
  const { runs, time } = timeApplicants(index, applicants, smoke ? 1 : 3);
  const sample = applicants.filter((_, i) => i % 50 === 0);
  const exhaustive = sample.map((a) => time(a, true)).sort((a, b) => a - b);
  const indexed = sample.map((a) => time(a, false)).sort((a, b) => a - b);
  return {
    names: index.nameCount,
    applicants: applicants.length,
    indexBuildMs: Math.round(buildMs),
    p50Ms: round(median(runs.map((r) => r.p50))),
    p99Ms: round(median(runs.map((r) => r.p99))),
    singleP99Ms: round(median(runs.map((r) => r.singleP99))),
    runs: runs.map((r) => `${round(r.p50)}/${round(r.p99)}`),
    withoutIndex: {
      sample: sample.length,
      p50Ms: round(percentile(exhaustive, 0.5)),
      p99Ms: round(percentile(exhaustive, 0.99)),
    },
    speedupMedian: Math.round((percentile(exhaustive, 0.5) / percentile(indexed, 0.5)) * 10) / 10,
    allLists: allListsBenchmark(applicants, smoke),
  };
}

/** The same applicants against 100,000 names of all five lists together; p99 against the 5 ms target. */
function allListsBenchmark(applicants: readonly Applicant[], smoke: boolean) {
  const builtAt = performance.now();
  const index = new ScreeningIndex(allListsSynthetic(100_000));
  const buildMs = performance.now() - builtAt;
  const { runs } = timeApplicants(index, applicants, smoke ? 1 : 3);
  const p99 = median(runs.map((r) => r.p99));
  return {
    names: index.nameCount,
    lists: 5,
    indexBuildMs: Math.round(buildMs),
    p50Ms: round(median(runs.map((r) => r.p50))),
    p99Ms: round(p99),
    singleP99Ms: round(median(runs.map((r) => r.singleP99))),
    cpuP99Ms: round(median(runs.map((r) => r.cpuP99))),
    runs: runs.map((r) => `${round(r.p50)}/${round(r.p99)}`),
    targetMs: SCREEN_TARGET_MS,
    p99OfTarget: Math.round((p99 / SCREEN_TARGET_MS) * 100) / 100,
  };
}
