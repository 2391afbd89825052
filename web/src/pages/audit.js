import { api, query } from '../api.js';
import { field, formatTime, h, replace, select } from '../dom.js';
import { has, keysUnder, t } from '../i18n.js';
import { detailsList } from './auditDetails.js';
import { actorLabel, emptyRow, errorPanel, mono, pageHeader, table } from '../ui.js';

/**
 * The audit trail, newest first: moves, reveals, sign-ins, app and operator changes. Filterable by
 * actor, action and target; more pages on demand.
 */

/** @typedef {{ id: number, at: number, actor: string, action: string, target_type: string | null, target_id: string | null, details: Record<string, unknown> | null, source: string }} Entry */

/** Every action the trail records (the console labels each one). */
const KNOWN_ACTIONS = keysUnder('audit.action.');

/** @param {string} action */
const actionLabel = (action) => (has(`audit.action.${action}`) ? t(`audit.action.${action}`) : action);

/** @param {string} type */
const targetLabel = (type) => (has(`audit.target.${type}`) ? t(`audit.target.${type}`) : type);

/** @type {import('../context.js').Page} */
export function renderAudit(main, ctx) {
  ctx.setTitle(t('audit.title'));
  const params = new URLSearchParams(location.search);
  const filters = {
    actor: params.get('actor') ?? '',
    action: params.get('action') ?? '',
    target_type: params.get('target_type') ?? '',
    target_id: params.get('target_id') ?? '',
  };
  /** @type {string | null} */
  let cursor = null;
  let stopped = false;
  const body = h('tbody', {});
  const notice = h('div', {});
  const more = h('button', { type: 'button', class: 'button', onclick: () => load(true) }, t('audit.more'));

  /** @param {boolean} append */
  async function load(append) {
    try {
      const page = await api(
        'GET',
        `/audit${query({ ...filters, limit: 50, cursor: append ? cursor : null })}`,
      );
      if (stopped) return;
      replace(notice);
      /** @type {Entry[]} */
      const items = page.items;
      cursor = page.next_cursor;
      more.hidden = cursor === null;
      const rows = items.map((entry) =>
        h(
          'tr',
          {},
          h('td', { class: 'nowrap' }, formatTime(entry.at)),
          h('td', {}, actorLabel(entry.actor)),
          h('td', {}, h('span', { class: 'strong', 'data-action': entry.action }, actionLabel(entry.action))),
          h(
            'td',
            {},
            entry.target_type === null
              ? '—'
              : h('span', {}, targetLabel(entry.target_type), ' ', mono(entry.target_id ?? '')),
          ),
          h('td', { class: 'details-cell' }, detailsList(entry.details)),
          h('td', { class: 'small muted' }, entry.source),
        ),
      );
      if (append) body.append(...rows);
      else if (rows.length === 0) replace(body, emptyRow(6, t('audit.empty')));
      else replace(body, rows);
    } catch (error) {
      if (!stopped) replace(notice, errorPanel(error));
    }
  }

  const actor = h('input', {
    name: 'actor',
    value: filters.actor,
    maxlength: 128,
    autocomplete: 'off',
    placeholder: 'operator:alice',
  });
  const action = h('input', {
    name: 'action',
    value: filters.action,
    maxlength: 64,
    autocomplete: 'off',
    list: 'audit-actions',
  });
  const targetType = select(
    { name: 'target_type' },
    [
      ['', t('audit.anyTarget')],
      ...keysUnder('audit.target.').map(
        (type) => /** @type {[string, string]} */ ([type, targetLabel(type)]),
      ),
    ],
    filters.target_type,
  );
  const targetId = h('input', {
    name: 'target_id',
    value: filters.target_id,
    maxlength: 128,
    autocomplete: 'off',
    class: 'mono',
  });
  const form = h(
    'form',
    { class: 'filters', role: 'search', 'aria-label': t('audit.filters') },
    field(t('audit.actor'), actor, t('audit.actorHint')),
    field(t('audit.action'), action),
    field(t('audit.targetType'), targetType),
    field(t('audit.targetId'), targetId),
    h(
      'div',
      { class: 'filter-actions' },
      h('button', { type: 'submit', class: 'button primary' }, t('queue.search')),
    ),
    h(
      'datalist',
      { id: 'audit-actions' },
      KNOWN_ACTIONS.map((a) => h('option', { value: a }, actionLabel(a))),
    ),
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    Object.assign(filters, {
      actor: actor.value.trim(),
      action: action.value.trim(),
      target_type: targetType.value,
      target_id: targetId.value.trim(),
    });
    const search = new URLSearchParams(Object.entries(filters).filter(([, v]) => v !== ''));
    history.replaceState(null, '', `/console/audit${search.size === 0 ? '' : `?${search}`}`);
    void load(false);
  });

  replace(
    main,
    h(
      'div',
      { class: 'page' },
      pageHeader(t('audit.title')),
      h('section', { class: 'card' }, form),
      notice,
      h(
        'section',
        { class: 'card flush' },
        table(
          t('audit.title'),
          [
            t('audit.at'),
            t('audit.actor'),
            t('audit.action'),
            t('audit.target'),
            t('audit.details'),
            t('audit.source'),
          ],
          body,
          'audit-table',
        ),
        h('div', { class: 'pager' }, more),
      ),
    ),
  );
  void load(false);
  return () => {
    stopped = true;
  };
}
