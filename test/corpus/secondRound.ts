import type { PopulationCase } from './population.ts';

/** Every case of the second round (issue 25), population by population. */
export const SECOND_ROUND: readonly PopulationCase[] = [];
