import { api } from '../api.js';
import { formatTime, h } from '../dom.js';
import { has, t } from '../i18n.js';
import { errorText } from '../ui.js';

/**
 * Sanctions screening hits beside the applicant (docs/SCREENING.md): the listed entry's names,
 * aliases, dates of birth and nationalities, the applicant's fields that matched, and the actions:
 * clear as a false positive with a note, confirm another operator's clearing (four eyes), or
 * reject the application on the hit.
 */

/**
 * @typedef {{ names: { text: string, kind: string, weak: boolean }[], birth_dates: string[], nationalities: string[] }} ListedEntry
 * @typedef {{ id: string, list: string, reference: string, matched_name: string, matched_kind: string, fields: string[], score: number, state: string, after_delivery: boolean, resolved_by: string | null, resolution_note: string | null, resolved_at: number | null, confirmed_by: string | null, entry: ListedEntry | null }} ScreeningHit
 */

/**
 * Notes being written, by hit: the application page redraws itself (a claim, a reload), and an
 * operator's half-written note must survive it rather than be sent empty.
 * @type {Map<string, string>}
 */
const draftNotes = new Map();

/** A list's name as its publisher calls it; the code where the console has none. @param {string} list */
const listLabel = (list) => (has(`screening.list.${list}`) ? t(`screening.list.${list}`) : list);

/**
 * @param {ScreeningHit[]} hits
 * @param {{ ctx: import('../context.js').PageContext, serial: string, reload: () => void, fieldLabel: (field: string) => string }} options
 */
export function screeningPanel(hits, { ctx, serial, reload, fieldLabel }) {
  if (hits.length === 0) return null;
  const canAct = ctx.can('reviewer');
  /** @param {ScreeningHit} hit @param {string} action @param {Record<string, unknown>} body */
  const act = async (hit, action, body) => {
    try {
      await api('POST', `/applications/${encodeURIComponent(serial)}/screening/${hit.id}/${action}`, body);
      draftNotes.delete(hit.id);
      ctx.toast(t(`screening.done.${action}`), 'success');
      reload();
    } catch (error) {
      ctx.toast(errorText(error), 'error');
    }
  };
  /** @param {ScreeningHit} hit */
  const actions = (hit) => {
    if (!canAct) return null;
    if (hit.state === 'unresolved') {
      const noteId = `screening-note-${hit.id}`;
      const note = /** @type {HTMLTextAreaElement} */ (
        h('textarea', { id: noteId, rows: 2, maxlength: 1000 })
      );
      note.value = draftNotes.get(hit.id) ?? '';
      note.addEventListener('input', () => draftNotes.set(hit.id, note.value));
      return h(
        'div',
        { class: 'screening-actions' },
        h('label', { for: noteId }, t('screening.note')),
        note,
        h(
          'button',
          { type: 'button', class: 'button', onclick: () => void act(hit, 'clear', { note: note.value }) },
          t('screening.clear'),
        ),
        h(
          'button',
          { type: 'button', class: 'button danger', onclick: () => void act(hit, 'reject', {}) },
          t('screening.reject'),
        ),
      );
    }
    if (hit.state === 'clearing') {
      const own = hit.resolved_by === ctx.session.username;
      return h(
        'div',
        { class: 'screening-actions' },
        own
          ? h('p', { class: 'small muted' }, t('screening.awaiting_second'))
          : h(
              'button',
              { type: 'button', class: 'button', onclick: () => void act(hit, 'confirm', {}) },
              t('screening.confirm'),
            ),
        h(
          'button',
          { type: 'button', class: 'button danger', onclick: () => void act(hit, 'reject', {}) },
          t('screening.reject'),
        ),
      );
    }
    return null;
  };
  return h(
    'section',
    { class: 'card screening', 'aria-labelledby': 'screening-title' },
    h('h2', { id: 'screening-title' }, t('screening.title')),
    h(
      'ul',
      { class: 'screening-hits' },
      hits.map((hit) =>
        h(
          'li',
          { class: `screening-hit state-${hit.state}`, 'data-hit': hit.id },
          h(
            'p',
            {},
            h('strong', {}, hit.matched_name),
            ' · ',
            t('screening.entry', { list: listLabel(hit.list), reference: hit.reference }),
            ' · ',
            t('screening.score', { score: Math.floor(hit.score * 100) }),
          ),
          h('p', { class: 'screening-state' }, t(`screening.state.${hit.state}`)),
          hit.after_delivery ? h('p', { class: 'error' }, t('screening.after_delivery')) : null,
          h(
            'p',
            { class: 'small' },
            t('screening.matched'),
            ' ',
            ...hit.fields.flatMap((f, i) => [
              i === 0 ? '' : t('list.separator'),
              h('mark', {}, fieldLabel(f)),
            ]),
          ),
          hit.entry === null
            ? null
            : h(
                'dl',
                { class: 'screening-entry small' },
                h('dt', {}, t('screening.names')),
                h(
                  'dd',
                  {},
                  hit.entry.names
                    .map((n) => n.text + (n.weak ? ` (${t('screening.weak')})` : ''))
                    .join(' · '),
                ),
                h('dt', {}, t('screening.birth_dates')),
                h('dd', {}, hit.entry.birth_dates.join(' · ') || '—'),
                h('dt', {}, t('screening.nationalities')),
                h('dd', {}, hit.entry.nationalities.join(' · ') || '—'),
              ),
          hit.resolved_by === null
            ? null
            : h(
                'p',
                { class: 'small muted' },
                t('screening.cleared_by', {
                  who: hit.resolved_by,
                  when: hit.resolved_at === null ? '' : formatTime(hit.resolved_at),
                }),
                hit.resolution_note === null ? '' : `: ${hit.resolution_note}`,
              ),
          actions(hit),
        ),
      ),
    ),
  );
}
