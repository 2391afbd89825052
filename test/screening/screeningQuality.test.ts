import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadConfig } from '../../src/config.ts';
import { ScreeningIndex } from '../../src/screening/screeningIndex.ts';
import { type LabelledApplicant, labelledApplicants, labelledListEntries } from './labelledSet.ts';

/**
 * The labelled set (test/screening/labelled/README.md) at the default threshold: every variant of
 * a listed name must hit its entry (recall at least 98%, and 95% in each group), and ordinary
 * applicants must not hit anything (false positives at most 0.2%). Recall and the false-positive
 * rate are printed for the whole set and for each group: the earlier variants
 * (`earlier`) and the passport groups of issue 53 (labels `reference group/kind`), the earlier
 * ordinary applicants and the passport groups' ones.
 */
/** The default of `SCREENING_THRESHOLD`. */
const DEFAULT_SCREENING_THRESHOLD = loadConfig({}).screening.threshold;
/** The ordinary applicants' labels written for the passport groups (buildPassportSet.ts). */
const PASSPORT_ORDINARY = new Set([
  'russian',
  'central-asian',
  'arabic',
  'spanish',
  'portuguese',
  'chinese-short',
]);

const variantGroup = (v: LabelledApplicant) => {
  const kind = v.label.split(' ')[1] ?? '';
  return kind.includes('/') ? kind.split('/')[0]! : 'earlier';
};
const percent = (part: number, whole: number, digits = 2) => `${((part / whole) * 100).toFixed(digits)}%`;

function groupBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) groups.set(key(item), [...(groups.get(key(item)) ?? []), item]);
  return groups;
}

test('recall on listed-name variants and false positives on ordinary names, at the default threshold', async () => {
  const index = new ScreeningIndex([
    { list: 'un', versionId: 'labelled', entries: await labelledListEntries() },
  ]);
  const variants = labelledApplicants('variants.tsv');
  const ordinary = labelledApplicants('ordinary.tsv');
  assert.ok(variants.length >= 1_070, `${variants.length} variants`);
  assert.ok(ordinary.length >= 20_200, `${ordinary.length} ordinary names`);

  const hits = (v: LabelledApplicant, threshold = DEFAULT_SCREENING_THRESHOLD) =>
    index.screen(v, threshold).some((hit) => hit.reference === v.label.split(' ')[0]);
  const missed = new Set(variants.filter((v) => !hits(v)));
  const flagged = new Set(ordinary.filter((o) => index.screen(o, DEFAULT_SCREENING_THRESHOLD).length > 0));
  const recall = 1 - missed.size / variants.length;
  const falsePositives = flagged.size / ordinary.length;
  const recallOf = (group: readonly LabelledApplicant[]) =>
    1 - group.filter((v) => missed.has(v)).length / group.length;
  const flaggedOf = (group: readonly LabelledApplicant[]) => group.filter((o) => flagged.has(o)).length;

  console.log(
    `screening at ${DEFAULT_SCREENING_THRESHOLD}: recall ${percent(variants.length - missed.size, variants.length)} ` +
      `(${variants.length - missed.size}/${variants.length}), false positives ` +
      `${percent(flagged.size, ordinary.length, 3)} (${flagged.size}/${ordinary.length})`,
  );
  const variantGroups = groupBy(variants, variantGroup);
  for (const [group, members] of variantGroups) {
    const found = members.filter((v) => !missed.has(v)).length;
    console.log(`  recall ${group}: ${percent(found, members.length)} (${found}/${members.length})`);
  }
  const ordinaryGroups = groupBy(ordinary, (o) => (PASSPORT_ORDINARY.has(o.label) ? o.label : 'earlier'));
  for (const [group, members] of ordinaryGroups) {
    const f = flaggedOf(members);
    console.log(`  false positives ${group}: ${percent(f, members.length, 3)} (${f}/${members.length})`);
  }
  // How near the threshold the hits are (issue 53 counted 88 under 0.92).
  const near = variants.filter((v) => !missed.has(v) && !hits(v, 0.92)).length;
  console.log(`  variants found scoring under 0.92: ${near}`);
  for (const m of missed) console.log(`  missed: ${m.label} ${m.name ?? ''} ${m.name_en ?? ''}`);
  for (const f of [...flagged].slice(0, 30)) {
    const hit = index.screen(f, DEFAULT_SCREENING_THRESHOLD)[0]!;
    console.log(
      `  flagged: ${f.label} ${f.name ?? ''} ${f.name_en ?? ''} ${f.birthday} -> ${hit.reference} ${hit.matched_name} ${hit.score}`,
    );
  }
  // For the documentation: how the figures move with the threshold, and without birthdays.
  for (const threshold of [0.85, 0.88, 0.9, 0.92, 0.95]) {
    const r = variants.filter((v) => hits(v, threshold)).length;
    const f = ordinary.filter((o) => index.screen(o, threshold).length > 0).length;
    const n = ordinary.filter(
      (o) => index.screen({ ...o, birthday: undefined }, threshold).length > 0,
    ).length;
    console.log(
      `  at ${threshold}: recall ${r}/${variants.length}, false positives ${f}/${ordinary.length} (${n} without birthdays)`,
    );
  }
  // Issue 53: 98% recall on the whole set, 95% in each group, 0.2% false positives.
  assert.ok(recall >= 0.98, `recall ${recall}`);
  for (const [group, members] of variantGroups) {
    assert.ok(recallOf(members) >= 0.95, `recall ${group} ${recallOf(members)}`);
  }
  assert.ok(falsePositives <= 0.002, `false positives ${falsePositives}`);
});
