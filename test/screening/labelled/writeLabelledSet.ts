import { writeFileSync } from 'node:fs';
import { buildEntries, buildOrdinary, buildVariants, tsv, unListXml } from './buildLabelledSet.ts';

/** Writes the labelled set: `node test/screening/labelled/writeLabelledSet.ts`. */
const entries = buildEntries();
const here = (name: string) => new URL(`./${name}`, import.meta.url);
writeFileSync(here('list.xml'), unListXml(entries));
writeFileSync(here('variants.tsv'), tsv(buildVariants(entries)));
writeFileSync(here('ordinary.tsv'), tsv(buildOrdinary()));
