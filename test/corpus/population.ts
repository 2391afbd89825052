import type { ApplicationRequest } from '../../src/record/schema.ts';
import type { ErrorName } from '../../src/errors/catalogue.ts';
import { applicantOf, type Population } from './applicants.ts';

/**
 * The second round of realistic applicants (issue 25): one population per file beside this one
 * (addresses as people write them, passports by issuing country, pinyin as printed, calling codes
 * without their plus). Each case says who the applicant is, the answer the service must give, and
 * the source that decides it (the specification, PRODUCT.md, or a published standard or notice).
 * A case starts from one of the corpus's applicants (`applicants.ts`) and changes a few fields.
 */
export interface PopulationCase {
  readonly id: string;
  /** The population of the second round the case belongs to. */
  readonly population: string;
  readonly who: string;
  readonly application: ApplicationRequest;
  /** `accepted`, or every problem as [field, catalogue rule], in the order the response lists them. */
  readonly expect: 'accepted' | readonly (readonly [string, ErrorName])[];
  readonly source: string;
}

export const OK = 'accepted' as const;

/** A population's case list and the function that adds one case to it. */
export function population(name: string): {
  readonly cases: PopulationCase[];
  readonly add: (
    base: Population,
    who: string,
    fields: Partial<ApplicationRequest> & Record<string, unknown>,
    expect: PopulationCase['expect'],
    source: string,
  ) => void;
} {
  const cases: PopulationCase[] = [];
  return {
    cases,
    add: (base, who, fields, expect, source) => {
      const id = `${name}-${String(cases.length + 1).padStart(3, '0')}`;
      cases.push({ id, population: name, who, application: applicantOf(base, fields), expect, source });
    },
  };
}
