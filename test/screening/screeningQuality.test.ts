import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadConfig } from '../../src/config.ts';
import { ScreeningIndex } from '../../src/screening/screeningIndex.ts';
import { labelledApplicants, labelledListEntries } from './labelledSet.ts';

/**
 * The labelled set (test/screening/labelled/README.md) at the default threshold: every variant of
 * a listed name must hit its entry (recall at least 98%), and ordinary applicants must not hit
 * anything (false positives at most 0.5%). Both figures are printed.
 */
/** The default of `SCREENING_THRESHOLD`. */
const DEFAULT_SCREENING_THRESHOLD = loadConfig({}).screening.threshold;

test('recall on listed-name variants and false positives on ordinary names, at the default threshold', async () => {
  const index = new ScreeningIndex([
    { list: 'un', versionId: 'labelled', entries: await labelledListEntries() },
  ]);
  const variants = labelledApplicants('variants.tsv');
  const ordinary = labelledApplicants('ordinary.tsv');
  assert.ok(variants.length >= 300, `${variants.length} variants`);
  assert.ok(ordinary.length >= 10_000, `${ordinary.length} ordinary names`);

  const missed = variants.filter((v) => {
    const reference = v.label.split(' ')[0];
    return !index.screen(v, DEFAULT_SCREENING_THRESHOLD).some((hit) => hit.reference === reference);
  });
  const flagged = ordinary.filter((o) => index.screen(o, DEFAULT_SCREENING_THRESHOLD).length > 0);
  const recall = 1 - missed.length / variants.length;
  const falsePositives = flagged.length / ordinary.length;
  console.log(
    `screening at ${DEFAULT_SCREENING_THRESHOLD}: recall ${(recall * 100).toFixed(2)}% ` +
      `(${variants.length - missed.length}/${variants.length}), false positives ` +
      `${(falsePositives * 100).toFixed(3)}% (${flagged.length}/${ordinary.length})`,
  );
  for (const m of missed) console.log(`  missed: ${m.label} ${m.name ?? ''} ${m.name_en ?? ''}`);
  for (const f of flagged.slice(0, 20)) {
    const hit = index.screen(f, DEFAULT_SCREENING_THRESHOLD)[0]!;
    console.log(
      `  flagged: ${f.label} ${f.name ?? ''} ${f.name_en ?? ''} -> ${hit.reference} ${hit.matched_name} ${hit.score}`,
    );
  }
  // For the documentation: how the figures move with the threshold, and without birthdays.
  for (const threshold of [0.85, 0.88, 0.9, 0.92, 0.95]) {
    const r = variants.filter((v) =>
      index.screen(v, threshold).some((h) => v.label.startsWith(h.reference)),
    ).length;
    const f = ordinary.filter((o) => index.screen(o, threshold).length > 0).length;
    const n = ordinary.filter(
      (o) => index.screen({ ...o, birthday: undefined }, threshold).length > 0,
    ).length;
    console.log(
      `  at ${threshold}: recall ${r}/${variants.length}, false positives ${f}/${ordinary.length} (${n} without birthdays)`,
    );
  }
  assert.ok(recall >= 0.98, `recall ${recall}`);
  assert.ok(falsePositives <= 0.005, `false positives ${falsePositives}`);
});
