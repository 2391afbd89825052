import { api } from '../api.js';
import { formatTime, h, replace } from '../dom.js';
import { t } from '../i18n.js';
import { emptyRow, errorPanel, loading, mono, table } from '../ui.js';

/**
 * The sanctions and PEP lists (docs/SCREENING.md): each list in force with what its newest import
 * changed against the version before (entries added, removed, changed) and what the re-screen that
 * followed found (applications newly hit, and those an open hit holds on an entry no longer
 * matched, each a link to its page); then the recent imports, newest first.
 */

/**
 * @typedef {{ previous_version_id: string | null, added: number, removed: number, changed: number, added_references: string[], removed_references: string[], changed_references: string[] }} EntryChanges
 * @typedef {{ finished_at: number, screened: number, newly_hit: number, newly_hit_applications: string[], no_longer_hit: number, no_longer_hit_applications: string[] }} RescreenOutcome
 * @typedef {{ version_id: string, list: string, entries: number, names: number, imported_at: number, imported_by: string, changes: EntryChanges | null, rescreen: RescreenOutcome | null }} ListVersion
 */

/** @type {import('../context.js').Page} */
export function renderScreeningLists(main, ctx) {
  ctx.setTitle(t('screeningPage.title'));
  const body = h('div', {}, loading());
  replace(main, h('div', { class: 'page' }, h('h1', {}, t('screeningPage.title')), body));
  let stopped = false;
  api('GET', '/screening/status')
    .then((/** @type {{ in_force: ListVersion[], imports: ListVersion[], open_hits: number }} */ status) => {
      if (stopped) return;
      replace(
        body,
        h('p', {}, t('screeningPage.open_hits', { n: status.open_hits })),
        status.in_force.length === 0
          ? h('p', { class: 'notice' }, t('screeningPage.none'))
          : h('div', { class: 'import-changes-list' }, status.in_force.map(inForce)),
        h('h2', {}, t('screeningPage.imports')),
        importsTable(status.imports),
      );
    })
    .catch((error) => replace(body, errorPanel(error)));
  return () => {
    stopped = true;
  };
}

/** @param {EntryChanges | null} changes */
const changeSummary = (changes) =>
  changes === null
    ? '—'
    : t(changes.previous_version_id === null ? 'screeningPage.first' : 'screeningPage.counts', {
        added: changes.added,
        removed: changes.removed,
        changed: changes.changed,
      });

/** @param {RescreenOutcome | null} rescreen */
const rescreenSummary = (rescreen) =>
  rescreen === null
    ? t('screeningPage.rescreen_pending')
    : t('screeningPage.rescreen_counts', { hit: rescreen.newly_hit, gone: rescreen.no_longer_hit });

/**
 * A labelled group of identifiers, "and n more" past those listed.
 * @param {string} label @param {number} count @param {(string | Node)[]} shown @param {string} kind
 */
function named(label, count, shown, kind) {
  if (count === 0) return null;
  const more = count - shown.length;
  return [
    h('dt', {}, `${label} (${count})`),
    h(
      'dd',
      { 'data-kind': kind },
      ...shown.flatMap((item, i) => (i === 0 ? [item] : [' ', item])),
      more > 0 ? ` ${t('screeningPage.more', { n: more })}` : '',
    ),
  ];
}

/** @param {string} serial */
const serialLink = (serial) =>
  h('a', { href: `/console/applications/${encodeURIComponent(serial)}` }, mono(serial));

/** @param {ListVersion} version */
function inForce(version) {
  const { changes, rescreen } = version;
  const titleId = `import-${version.version_id}`;
  return h(
    'section',
    { class: 'card import-changes', 'data-version': version.version_id, 'aria-labelledby': titleId },
    h('h2', { id: titleId }, t('screeningPage.in_force', { list: version.list })),
    h(
      'p',
      { class: 'small' },
      mono(version.version_id),
      ' · ',
      t('screeningPage.imported', {
        entries: version.entries,
        when: formatTime(version.imported_at),
        who: version.imported_by,
      }),
    ),
    h('p', { class: 'import-summary' }, changeSummary(changes), ' · ', rescreenSummary(rescreen)),
    changes === null && rescreen === null
      ? null
      : h(
          'dl',
          { class: 'import-details small' },
          ...(changes === null || changes.previous_version_id === null
            ? []
            : [
                named(t('screeningPage.added'), changes.added, changes.added_references.map(mono), 'added'),
                named(
                  t('screeningPage.removed'),
                  changes.removed,
                  changes.removed_references.map(mono),
                  'removed',
                ),
                named(
                  t('screeningPage.changed'),
                  changes.changed,
                  changes.changed_references.map(mono),
                  'changed',
                ),
              ]),
          ...(rescreen === null
            ? []
            : [
                named(
                  t('screeningPage.newly_hit'),
                  rescreen.newly_hit,
                  rescreen.newly_hit_applications.map(serialLink),
                  'newly-hit',
                ),
                named(
                  t('screeningPage.no_longer_hit'),
                  rescreen.no_longer_hit,
                  rescreen.no_longer_hit_applications.map(serialLink),
                  'no-longer-hit',
                ),
              ]),
        ),
  );
}

/** @param {ListVersion[]} imports */
function importsTable(imports) {
  return table(
    t('screeningPage.imports'),
    [
      t('screeningPage.list'),
      t('screeningPage.version'),
      t('screeningPage.imported_at'),
      t('screeningPage.entries'),
      t('screeningPage.changes'),
      t('screeningPage.rescreen'),
    ],
    h(
      'tbody',
      {},
      imports.length === 0
        ? emptyRow(6, t('screeningPage.none'))
        : imports.map((v) =>
            h(
              'tr',
              { 'data-version': v.version_id },
              h('td', {}, v.list),
              h('td', {}, mono(v.version_id)),
              h('td', {}, formatTime(v.imported_at)),
              h('td', { class: 'num' }, String(v.entries)),
              h('td', {}, changeSummary(v.changes)),
              h('td', {}, rescreenSummary(v.rescreen)),
            ),
          ),
    ),
    'imports-table',
  );
}
