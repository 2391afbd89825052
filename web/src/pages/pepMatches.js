import { h } from '../dom.js';
import { t } from '../i18n.js';
import { mono } from '../ui.js';

/**
 * PEP matches beside the applicant (docs/SCREENING.md): a politically exposed person, or a
 * relative or close associate of one, that the applicant matched on a PEP list. It holds nothing
 * and is not resolved here: the risk rating weighs it. The reviewer sees the positions held (with
 * their country and dates where the list gives them) and, for a relative or associate, the tie.
 */

/**
 * @typedef {{ title: string, country: string | null, start: string | null, end: string | null }} PepPosition
 * @typedef {{ relationship: string, reference: string, name: string | null }} PepRelation
 * @typedef {{ id: string, list: string, reference: string, role: string, matched_name: string, fields: string[], score: number, entry: { names: { text: string }[], birth_dates: string[], nationalities: string[], positions: PepPosition[], relations: PepRelation[] } | null }} PepMatch
 */

/** @param {PepPosition} position */
function positionText(position) {
  const dates =
    position.start === null && position.end === null
      ? ''
      : ` (${position.start ?? '?'} – ${position.end ?? t('pep.now')})`;
  return `${position.title}${position.country === null ? '' : `, ${position.country}`}${dates}`;
}

/**
 * @param {PepMatch[]} matches
 * @param {{ fieldLabel: (field: string) => string }} options
 */
export function pepPanel(matches, { fieldLabel }) {
  if (matches.length === 0) return null;
  return h(
    'section',
    { class: 'card pep-matches', 'aria-labelledby': 'pep-title' },
    h('h2', { id: 'pep-title' }, t('pep.title')),
    h('p', { class: 'small muted' }, t('pep.holds_nothing')),
    h(
      'ul',
      { class: 'screening-hits' },
      matches.map((match) =>
        h(
          'li',
          { class: `pep-match role-${match.role}`, 'data-pep': match.id },
          h(
            'p',
            {},
            h('strong', {}, match.matched_name),
            ' · ',
            mono(`${match.list} ${match.reference}`),
            ' · ',
            t(`pep.role.${match.role}`),
          ),
          h(
            'p',
            { class: 'small' },
            t('pep.matched'),
            ' ',
            ...match.fields.map((f) => h('mark', {}, fieldLabel(f), ' ')),
          ),
          match.entry === null
            ? null
            : h(
                'dl',
                { class: 'screening-entry small' },
                h('dt', {}, t('pep.positions')),
                h('dd', {}, match.entry.positions.map(positionText).join(' · ') || '—'),
                match.entry.relations.length === 0 ? null : h('dt', {}, t('pep.relation')),
                match.entry.relations.length === 0
                  ? null
                  : h(
                      'dd',
                      {},
                      match.entry.relations
                        .map((r) => `${r.relationship}: ${r.name ?? r.reference} (${r.reference})`)
                        .join(' · '),
                    ),
                h('dt', {}, t('screening.birth_dates')),
                h('dd', {}, match.entry.birth_dates.join(' · ') || '—'),
                h('dt', {}, t('screening.nationalities')),
                h('dd', {}, match.entry.nationalities.join(' · ') || '—'),
              ),
        ),
      ),
    ),
  );
}
