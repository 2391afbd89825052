import { createReadStream, readFileSync } from 'node:fs';
import type { ListEntry } from '../../src/screening/listEntry.ts';
import { readList } from '../../src/screening/readList.ts';
import type { Applicant } from '../../src/screening/screeningIndex.ts';

/** The labelled set of test/screening/labelled/ as the tests and the bench read it. */
export interface LabelledApplicant extends Applicant {
  label: string;
}

const here = (name: string) => new URL(`./labelled/${name}`, import.meta.url);

export async function labelledListEntries(): Promise<ListEntry[]> {
  const entries: ListEntry[] = [];
  for await (const entry of readList('un', createReadStream(here('list.xml')))) entries.push(entry);
  return entries;
}

export function labelledApplicants(file: 'variants.tsv' | 'ordinary.tsv'): LabelledApplicant[] {
  const [, ...rows] = readFileSync(here(file), 'utf8').trimEnd().split('\n');
  return rows.map((row) => {
    const [label, name, nameEn, birthday, country] = row.split('\t') as [
      string,
      string,
      string,
      string,
      string,
    ];
    return {
      label,
      ...(name === '' ? {} : { name }),
      ...(nameEn === '' ? {} : { name_en: nameEn }),
      birthday,
      country,
    };
  });
}
