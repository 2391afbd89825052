import { field, formatTime, h, replace, select } from '../../dom.js';
import { statusLabel, t } from '../../i18n.js';
import { emptyRow, errorPanel, mono, pageHeader, statusBadge, table } from '../../ui.js';
import { PAGE_SIZES, RISK_TIERS } from './state.js';
import { tierBadge } from '../riskRating.js';

/**
 * What the queue shows: the counts per status (chips that filter), the filter form, the table of
 * applications with its sortable creation column, and the pager. The controls write the filters
 * they edit and call `apply`; the page does the rest.
 */

/** @typedef {import('../../context.js').PageContext} PageContext */
/** @typedef {import('./state.js').Filters} Filters */
/** @typedef {import('./state.js').Summary} Summary */
/** @typedef {{ apply: () => void, turn: (step: 1 | -1) => void }} Handlers */

/**
 * @param {PageContext} ctx
 * @param {Filters} filters
 * @param {Handlers} handlers
 */
export function queueView(ctx, filters, { apply, turn }) {
  const countsList = h('ul', { class: 'counts', 'aria-label': t('queue.counts') });
  const notice = h('div', {});
  const body = h('tbody', {});
  const updated = h('span', { class: 'muted small', role: 'status', 'aria-live': 'off' });
  const previous = h(
    'button',
    { type: 'button', class: 'button', onclick: () => turn(-1) },
    t('queue.previous'),
  );
  const next = h('button', { type: 'button', class: 'button', onclick: () => turn(1) }, t('queue.next'));
  const pageLabel = h('span', { class: 'muted' });
  const announcer = h('div', { class: 'sr-only', role: 'status', 'aria-live': 'polite' });

  const limitSelect = select(
    { name: 'limit' },
    PAGE_SIZES.map((n) => /** @type {[string, string]} */ ([n, n])),
    filters.limit,
  );
  limitSelect.addEventListener('change', () => {
    filters.limit = limitSelect.value;
    apply();
  });
  const filterBox = filterForm(ctx, filters, apply);
  const sort = sortColumn(filters, apply, '', t('queue.created'));
  const riskSort = sortColumn(filters, apply, 'risk', t('queue.risk'));
  const columns = [
    t('queue.serialShort'),
    t('queue.app'),
    t('queue.status'),
    riskSort.button,
    t('queue.document'),
    t('queue.card'),
    sort.button,
    t('queue.updatedAt'),
  ];
  const grid = table(t('queue.tableCaption'), columns, body, 'queue-table');
  const showSort = () => {
    sort.show();
    riskSort.show();
  };
  showSort();

  const element = h(
    'div',
    { class: 'page' },
    pageHeader(t('queue.title'), updated),
    countsList,
    h('section', { class: 'card' }, filterBox.form),
    notice,
    h(
      'section',
      { class: 'card flush' },
      grid,
      h(
        'div',
        { class: 'pager' },
        pageLabel,
        h('div', { class: 'pager-buttons' }, previous, next),
        field(t('queue.pageSize'), limitSelect),
      ),
    ),
    announcer,
  );

  /** A chip filters on its status, and the form's select follows. @param {string} status */
  const chose = (status) => {
    filters.status = status;
    filterBox.statusSelect.value = status;
    apply();
  };

  return {
    element,
    showSort,
    /** @param {{ app_id: string, name: string }[]} apps */
    showApps: (apps) =>
      replace(
        filterBox.appIds,
        apps.map((a) => h('option', { value: a.app_id }, a.name)),
      ),
    /**
     * A load's answer: the counts, the rows (those in `fresh` marked and announced), the pager.
     * @param {import('./load.js').Counts} counts
     * @param {Summary[]} items
     * @param {Set<string>} fresh
     * @param {{ pages: number, more: boolean }} pager pages: turned through, this one included
     */
    shown(counts, items, fresh, pager) {
      replace(notice);
      showCounts(ctx, countsList, filters, counts, chose);
      if (fresh.size > 0) replace(announcer, t('queue.newArrived', { n: fresh.size }));
      if (items.length === 0) replace(body, emptyRow(8, t('queue.empty')));
      else
        replace(
          body,
          items.map((item) => queueRow(ctx, item, fresh)),
        );
      previous.disabled = pager.pages <= 1;
      next.disabled = !pager.more;
      replace(pageLabel, t('queue.page', { n: pager.pages }));
      replace(updated, t('queue.updated', { time: formatTime(Math.floor(Date.now() / 1000)).slice(11) }));
    },
    /** @param {unknown} error */
    failed: (error) => replace(notice, errorPanel(error)),
  };
}

/**
 * @param {PageContext} ctx
 * @param {HTMLElement} countsList
 * @param {Filters} filters
 * @param {import('./load.js').Counts} data
 * @param {(status: string) => void} chose
 */
function showCounts(ctx, countsList, filters, data, chose) {
  /** @param {string} status @param {string} label @param {number} n */
  const chip = (status, label, n) =>
    h(
      'li',
      {},
      h(
        'button',
        {
          type: 'button',
          class: `count-chip${status === '' ? '' : ` chip-${status.toLowerCase()}`}`,
          'aria-pressed': filters.status === status ? 'true' : 'false',
          'data-status': status || 'ALL',
          onclick: () => chose(status),
        },
        h('span', { class: 'count-label' }, label),
        h('span', { class: 'count-value' }, n),
      ),
    );
  // Redrawn with new counts, the chip the keyboard was on keeps the focus (WCAG 2.4.3).
  const focused =
    document.activeElement instanceof HTMLElement && countsList.contains(document.activeElement)
      ? document.activeElement.dataset['status']
      : undefined;
  replace(
    countsList,
    chip('', t('queue.all'), data.total),
    ctx.meta.statuses.map((status) => chip(status, statusLabel(status), data.counts[status] ?? 0)),
  );
  if (focused !== undefined)
    /** @type {HTMLElement | null} */ (countsList.querySelector(`[data-status="${focused}"]`))?.focus();
}

/** How long ago, roughly: minutes, hours or days. @param {number} seconds */
function age(seconds) {
  const elapsed = Math.max(0, Date.now() / 1000 - seconds);
  if (elapsed < 3600) return t('dashboard.minutes', { n: Math.floor(elapsed / 60) });
  if (elapsed < 86_400) return t('dashboard.hours', { n: (elapsed / 3600).toFixed(1) });
  return t('dashboard.days', { n: (elapsed / 86_400).toFixed(1) });
}

/**
 * Longer in its status than the SLA setting allows (REVIEW_SLA_SECONDS).
 * @param {PageContext} ctx
 * @param {{ status: string, updated_at: number }} item
 */
function pastSla(ctx, item) {
  const sla = ctx.meta.sla_seconds[item.status];
  return sla !== undefined && Date.now() / 1000 - item.updated_at > sla;
}

/** @param {PageContext} ctx @param {Summary} item @param {Set<string>} fresh */
function queueRow(ctx, item, fresh) {
  return h(
    'tr',
    {
      class:
        [fresh.has(item.busi_water_no) ? 'row-new' : '', pastSla(ctx, item) ? 'past-sla' : '']
          .join(' ')
          .trim() || null,
      'data-serial': item.busi_water_no,
      'data-past-sla': pastSla(ctx, item) ? 'true' : null,
    },
    h(
      'td',
      {},
      h(
        'a',
        { href: `/console/applications/${item.busi_water_no}`, class: 'mono serial-link' },
        item.busi_water_no,
      ),
      item.name_masked ? h('div', { class: 'row-applicant' }, item.name_masked) : null,
    ),
    h(
      'td',
      {},
      item.app_name ? h('div', { class: 'row-partner' }, item.app_name) : null,
      h('div', { class: item.app_name ? 'muted small' : '' }, mono(item.app_id)),
    ),
    h(
      'td',
      {},
      statusBadge(item.status),
      item.claimed_by
        ? h('div', { class: 'row-holder muted small' }, t('queue.heldBy', { holder: item.claimed_by }))
        : null,
    ),
    h('td', { 'data-column': 'risk' }, tierBadge(item.risk_tier)),
    h('td', {}, t(`certType.${item.cert_type}`)),
    h('td', {}, mono(item.card_no_masked)),
    h(
      'td',
      { class: 'nowrap' },
      formatTime(item.created_at),
      h('div', { class: 'row-age muted small' }, t('queue.age', { age: age(item.created_at) })),
    ),
    h('td', { class: 'nowrap' }, formatTime(item.updated_at)),
  );
}

/**
 * The filter form: search, reset, and the app ids the datalist suggests.
 * @param {PageContext} ctx
 * @param {Filters} filters
 * @param {() => void} apply
 */
function filterForm(ctx, filters, apply) {
  const statusSelect = select(
    { name: 'status' },
    [
      ['', t('queue.anyStatus')],
      ...ctx.meta.statuses.map((s) => /** @type {[string, string]} */ ([s, statusLabel(s)])),
    ],
    filters.status,
  );
  const appInput = h('input', {
    name: 'app_id',
    value: filters.app_id,
    maxlength: 64,
    autocomplete: 'off',
    list: 'app-ids',
  });
  // Dates in the ISO form the table shows (a date picker would show the browser's locale form).
  /** @param {string} name @param {string} value */
  const isoDate = (name, value) =>
    h('input', {
      name,
      value,
      pattern: '[0-9]{4}-[0-9]{2}-[0-9]{2}',
      placeholder: 'YYYY-MM-DD',
      inputmode: 'numeric',
      maxlength: 10,
      autocomplete: 'off',
      class: 'mono',
    });
  const fromInput = isoDate('from', filters.from);
  const toInput = isoDate('to', filters.to);
  const serialInput = h('input', {
    name: 'serial',
    type: 'search',
    value: filters.serial,
    maxlength: 64,
    autocomplete: 'off',
    spellcheck: 'false',
    class: 'mono',
    placeholder: t('queue.serialHint'),
  });
  const appIds = h('datalist', { id: 'app-ids' });
  // Screening (pages/screening.js): only the applications an open sanctions hit holds.
  const screeningInput = /** @type {HTMLInputElement} */ (
    h('input', { type: 'checkbox', name: 'screening', checked: filters.screening === 'open' })
  );
  const tierSelect = select(
    { name: 'risk_tier' },
    [
      ['', t('queue.anyTier')],
      ...RISK_TIERS.map((tier) => /** @type {[string, string]} */ ([tier, t(`riskTier.${tier}`)])),
    ],
    filters.risk_tier,
  );
  const form = h(
    'form',
    { class: 'filters', role: 'search', 'aria-label': t('queue.filters') },
    field(t('queue.serial'), serialInput),
    field(t('queue.status'), statusSelect),
    field(t('queue.riskTier'), tierSelect),
    field(t('queue.app'), appInput),
    field(t('queue.createdFrom'), fromInput),
    field(t('queue.createdTo'), toInput),
    field(t('queue.screening'), screeningInput),
    h(
      'div',
      { class: 'filter-actions' },
      h('button', { type: 'submit', class: 'button primary' }, t('queue.search')),
      h(
        'button',
        {
          type: 'button',
          class: 'button ghost',
          onclick: () => {
            Object.assign(filters, {
              status: '',
              app_id: '',
              from: '',
              to: '',
              serial: '',
              screening: '',
              risk_tier: '',
            });
            screeningInput.checked = false;
            for (const input of [statusSelect, tierSelect, appInput, fromInput, toInput, serialInput])
              input.value = '';
            apply();
          },
        },
        t('queue.reset'),
      ),
    ),
    appIds,
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    Object.assign(filters, {
      status: statusSelect.value,
      app_id: appInput.value.trim(),
      from: fromInput.value,
      to: toInput.value,
      serial: serialInput.value.trim().toUpperCase(),
      screening: screeningInput.checked ? 'open' : '',
      risk_tier: tierSelect.value,
    });
    serialInput.value = filters.serial;
    apply();
  });
  return { form, statusSelect, appIds };
}

/**
 * A sortable column's button: the creation column's ('') or the risk column's ('risk'). `show`
 * puts the sort on the column it is by: aria-sort on its header, an arrow in its button. The risk
 * column sorts riskiest first at its first click, then turns the order.
 * @param {Filters} filters
 * @param {() => void} apply
 * @param {'' | 'risk'} by
 * @param {string} label
 */
function sortColumn(filters, apply, by, label) {
  const button = h('button', {
    type: 'button',
    class: 'sort-button',
    'data-sort': by || 'created',
    onclick: () => {
      if (filters.sort === by) filters.order = filters.order === 'asc' ? 'desc' : 'asc';
      else {
        filters.sort = by;
        filters.order = 'desc';
      }
      apply();
      button.focus();
    },
  });
  const show = () => {
    const active = filters.sort === by;
    const header = button.closest('th');
    if (active) header?.setAttribute('aria-sort', filters.order === 'asc' ? 'ascending' : 'descending');
    else header?.removeAttribute('aria-sort');
    replace(
      button,
      label,
      h(
        'span',
        { class: 'sort-arrow', 'aria-hidden': 'true' },
        active ? (filters.order === 'asc' ? '↑' : '↓') : '↕',
      ),
    );
  };
  return { button, show };
}
