import { api, query } from '../../api.js';
import { dayToSeconds, field, formatTime, h, replace, select } from '../../dom.js';
import { statusLabel, t } from '../../i18n.js';
import { emptyRow, errorPanel, mono, pageHeader, statusBadge, table } from '../../ui.js';

/**
 * The queue: applications in a table, filtered by status, app and creation day, found by serial
 * number, sorted by creation, a page at a time, with the counts per status above. It polls, so new
 * submissions appear without a reload. Filters live in the address (back, forward and reload keep
 * them); the page position does not.
 */

export const POLL_MS = 5000;
const PAGE_SIZES = ['20', '50', '100'];

/** @typedef {{ busi_water_no: string, app_id: string, status: string, cert_type: string, card_no_masked: string, created_at: number, updated_at: number, app_name?: string | null, name_masked?: string | null, claimed_by?: string | null }} Summary */

/** @type {import('../../context.js').Page} */
export function renderQueue(main, ctx) {
  ctx.setTitle(t('queue.title'));
  const params = new URLSearchParams(location.search);
  const filters = {
    status: params.get('status') ?? '',
    app_id: params.get('app_id') ?? '',
    from: params.get('from') ?? '',
    to: params.get('to') ?? '',
    serial: params.get('serial') ?? '',
    screening: params.get('screening') === 'open' ? 'open' : '',
    order: params.get('order') === 'asc' ? 'asc' : 'desc',
    limit: PAGE_SIZES.includes(params.get('limit') ?? '')
      ? /** @type {string} */ (params.get('limit'))
      : '20',
  };
  /** Cursors of the pages before this one, and of this one. */
  /** @type {(string | null)[]} */
  let cursors = [null];
  /** @type {string | null} */
  let nextCursor = null;
  /** @type {Set<string> | null} serials on screen at the last load, to mark new ones */
  let seen = null;
  let stopped = false;
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer;

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

  const timeRange = () => ({
    created_from: filters.from === '' ? undefined : dayToSeconds(filters.from, 'start'),
    created_to: filters.to === '' ? undefined : dayToSeconds(filters.to, 'end'),
  });

  /** Numbers the loads: an answer that a newer load overtook is dropped. */
  let latest = 0;

  /** @param {boolean} [background] a poll, not the operator's doing: it does not keep the session alive */
  async function load(background = false) {
    clearTimeout(timer);
    const options = { background };
    const ticket = ++latest;
    const cursor = cursors[cursors.length - 1] ?? undefined;
    try {
      const [counts, page] = await Promise.all([
        api(
          'GET',
          `/applications/counts${query({ app_id: filters.app_id, ...timeRange() })}`,
          undefined,
          options,
        ),
        api(
          'GET',
          `/applications${query({
            status: filters.status,
            app_id: filters.app_id,
            busi_water_no: filters.serial,
            screening: filters.screening,
            ...timeRange(),
            order: filters.order,
            limit: filters.limit,
            cursor,
          })}`,
          undefined,
          options,
        ),
      ]);
      if (stopped || ticket !== latest) return;
      replace(notice);
      renderCounts(counts);
      renderRows(page.items);
      nextCursor = page.next_cursor;
      previous.disabled = cursors.length <= 1;
      next.disabled = nextCursor === null;
      replace(pageLabel, t('queue.page', { n: cursors.length }));
      replace(updated, t('queue.updated', { time: formatTime(Math.floor(Date.now() / 1000)).slice(11) }));
    } catch (error) {
      if (stopped || ticket !== latest) return;
      replace(notice, errorPanel(error));
    }
    if (!stopped) timer = setTimeout(poll, POLL_MS);
  }

  function poll() {
    if (document.visibilityState === 'visible') void load(true);
    else timer = setTimeout(poll, POLL_MS);
  }

  /** @param {{ counts: Record<string, number>, total: number }} data */
  function renderCounts(data) {
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
            onclick: () => {
              filters.status = status;
              statusSelect.value = status;
              apply();
            },
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

  /** Longer in its status than the SLA setting allows (REVIEW_SLA_SECONDS). @param {{ status: string, updated_at: number }} item */
  function pastSla(item) {
    const sla = ctx.meta.sla_seconds[item.status];
    return sla !== undefined && Date.now() / 1000 - item.updated_at > sla;
  }

  /** @param {Summary[]} items */
  function renderRows(items) {
    const fresh =
      seen === null ? new Set() : new Set(items.map((i) => i.busi_water_no).filter((s) => !seen?.has(s)));
    if (fresh.size > 0) replace(announcer, t('queue.newArrived', { n: fresh.size }));
    seen = new Set([...(seen ?? []), ...items.map((i) => i.busi_water_no)]);
    if (items.length === 0) return replace(body, emptyRow(7, t('queue.empty')));
    replace(
      body,
      items.map((item) =>
        h(
          'tr',
          {
            class:
              [fresh.has(item.busi_water_no) ? 'row-new' : '', pastSla(item) ? 'past-sla' : '']
                .join(' ')
                .trim() || null,
            'data-serial': item.busi_water_no,
            'data-past-sla': pastSla(item) ? 'true' : null,
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
          h('td', {}, t(`certType.${item.cert_type}`)),
          h('td', {}, mono(item.card_no_masked)),
          h(
            'td',
            { class: 'nowrap' },
            formatTime(item.created_at),
            h('div', { class: 'row-age muted small' }, t('queue.age', { age: age(item.created_at) })),
          ),
          h('td', { class: 'nowrap' }, formatTime(item.updated_at)),
        ),
      ),
    );
  }

  /** @param {1 | -1} step */
  function turn(step) {
    if (step === 1 && nextCursor !== null) cursors.push(nextCursor);
    if (step === -1 && cursors.length > 1) cursors.pop();
    seen = null;
    void load();
  }

  /** Filters into the address, back to the first page. */
  function apply() {
    const search = new URLSearchParams();
    for (const [name, value] of Object.entries(filters)) {
      const isDefault = (name === 'order' && value === 'desc') || (name === 'limit' && value === '20');
      if (value !== '' && !isDefault) search.set(name, value);
    }
    const text = search.toString();
    history.replaceState(null, '', `/console/${text === '' ? '' : `?${text}`}`);
    cursors = [null];
    seen = null;
    showSort();
    void load();
  }

  // The filter form.
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
    maxlength: 32,
    autocomplete: 'off',
    spellcheck: 'false',
    class: 'mono',
    placeholder: t('queue.serialHint'),
  });
  const limitSelect = select(
    { name: 'limit' },
    PAGE_SIZES.map((n) => /** @type {[string, string]} */ ([n, n])),
    filters.limit,
  );
  limitSelect.addEventListener('change', () => {
    filters.limit = limitSelect.value;
    apply();
  });
  const appIds = h('datalist', { id: 'app-ids' });
  if (ctx.can('admin')) {
    api('GET', '/apps')
      .then((/** @type {{ app_id: string, name: string }[]} */ apps) =>
        replace(
          appIds,
          apps.map((a) => h('option', { value: a.app_id }, a.name)),
        ),
      )
      .catch(() => {});
  }
  // Screening (pages/screening.js): only the applications an open sanctions hit holds.
  const screeningInput = /** @type {HTMLInputElement} */ (
    h('input', { type: 'checkbox', name: 'screening', checked: filters.screening === 'open' })
  );
  const form = h(
    'form',
    { class: 'filters', role: 'search', 'aria-label': t('queue.filters') },
    field(t('queue.serial'), serialInput),
    field(t('queue.status'), statusSelect),
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
            Object.assign(filters, { status: '', app_id: '', from: '', to: '', serial: '', screening: '' });
            screeningInput.checked = false;
            for (const input of [statusSelect, appInput, fromInput, toInput, serialInput]) input.value = '';
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
    });
    serialInput.value = filters.serial;
    apply();
  });

  const sortButton = h('button', {
    type: 'button',
    class: 'sort-button',
    onclick: () => {
      filters.order = filters.order === 'asc' ? 'desc' : 'asc';
      apply();
      sortButton.focus();
    },
  });
  const columns = [
    t('queue.serialShort'),
    t('queue.app'),
    t('queue.status'),
    t('queue.document'),
    t('queue.card'),
    sortButton,
    t('queue.updatedAt'),
  ];
  const grid = table(t('queue.tableCaption'), columns, body, 'queue-table');
  const createdHeader = sortButton.closest('th');

  /** The sort shown on the column: aria-sort on its header, an arrow in its button. */
  function showSort() {
    createdHeader?.setAttribute('aria-sort', filters.order === 'asc' ? 'ascending' : 'descending');
    replace(
      sortButton,
      t('queue.created'),
      h('span', { class: 'sort-arrow', 'aria-hidden': 'true' }, filters.order === 'asc' ? '↑' : '↓'),
    );
  }
  showSort();

  replace(
    main,
    h(
      'div',
      { class: 'page' },
      pageHeader(t('queue.title'), updated),
      countsList,
      h('section', { class: 'card' }, form),
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
    ),
  );
  void load();
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}
