import { api, query } from '../api.js';
import { formDialog } from '../dialog.js';
import { formatTime, h, replace, select } from '../dom.js';
import { t } from '../i18n.js';
import { emptyRow, errorPanel, errorText, mono, pageHeader, table } from '../ui.js';

/**
 * Applicants' requests through the partners (docs/PRIVACY.md): every partner's, newest first, with
 * their due dates (past due flagged), and the steps that end one: start, carry out a deletion (the
 * policy erases or restricts), answer a correction with a request for information, refuse with a
 * reason. A reviewer or an admin acts; every step is audited by the service.
 */

/**
 * @typedef {{ request_id: string, kind: string, status: string, app_id: string, busi_water_no: string,
 *   applications: string[], reason_code: string | null, reason: string | null,
 *   restricted_until: number | null, due_at: number, created_at: number, ended_at: number | null,
 *   overdue: boolean, information_requested_on: string | null }} SubjectRequest
 */

const REFUSAL_CODES = [
  'identity_not_verified',
  'not_the_applicant',
  'manifestly_unfounded',
  'excessive',
  'data_accurate',
  'correction_not_possible',
  'legal_obligation',
  'other',
];

/** @type {import('../context.js').Page} */
export function renderSubjectRequests(main, ctx) {
  ctx.setTitle(t('subjects.title'));
  const params = new URLSearchParams(location.search);
  const filters = { open: params.get('open') ?? 'true', kind: params.get('kind') ?? '' };
  let stopped = false;
  const body = h('tbody', {});
  const notice = h('div', {});

  async function load() {
    try {
      const page = await api(
        'GET',
        `/subject-requests${query({ open: filters.open === 'true' ? 'true' : null, kind: filters.kind || null, limit: 100 })}`,
      );
      if (stopped) return;
      replace(notice);
      /** @type {SubjectRequest[]} */
      const items = page.items;
      if (items.length === 0) replace(body, emptyRow(7, t('subjects.empty')));
      else
        replace(
          body,
          items.map((item) => row(item, actions(item, ctx, step))),
        );
    } catch (error) {
      if (!stopped) replace(notice, errorPanel(error));
    }
  }

  /**
   * @param {SubjectRequest} request
   * @param {string} step
   * @param {Record<string, unknown>} payload
   * @param {string} done
   */
  async function step(request, step, payload, done) {
    await api('POST', `/subject-requests/${request.request_id}/${step}`, payload);
    ctx.toast(done, 'success');
    await load();
  }

  const openFilter = select(
    { name: 'open' },
    [
      ['true', t('subjects.openOnly')],
      ['false', t('subjects.all')],
    ],
    filters.open,
  );
  const kindFilter = select(
    { name: 'kind' },
    [
      ['', t('subjects.anyKind')],
      ...['access', 'portability', 'correction', 'deletion'].map(
        (k) => /** @type {[string, string]} */ ([k, t(`subjects.kind.${k}`)]),
      ),
    ],
    filters.kind,
  );
  const form = h(
    'form',
    { class: 'filters', role: 'search', 'aria-label': t('subjects.filters') },
    h('label', {}, t('subjects.show'), ' ', openFilter),
    h('label', {}, t('subjects.kindLabel'), ' ', kindFilter),
    h(
      'div',
      { class: 'filter-actions' },
      h('button', { type: 'submit', class: 'button primary' }, t('queue.search')),
    ),
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    filters.open = openFilter.value;
    filters.kind = kindFilter.value;
    const search = new URLSearchParams(Object.entries(filters).filter(([, v]) => v !== ''));
    history.replaceState(null, '', `/console/subject-requests?${search}`);
    void load();
  });

  replace(
    main,
    h(
      'div',
      { class: 'page' },
      pageHeader(t('subjects.title')),
      h('p', { class: 'muted' }, t('subjects.intro')),
      h('section', { class: 'card' }, form),
      notice,
      h(
        'section',
        { class: 'card flush' },
        table(
          t('subjects.title'),
          [
            t('subjects.request'),
            t('subjects.kindLabel'),
            t('subjects.state'),
            t('subjects.due'),
            t('subjects.partner'),
            t('subjects.applications'),
            t('subjects.actions'),
          ],
          body,
          'subjects-table',
        ),
      ),
    ),
  );
  void load();
  return () => {
    stopped = true;
  };
}

/**
 * The steps a reviewer or an admin may take on an open request.
 * @param {SubjectRequest} request
 * @param {import('../context.js').PageContext} ctx
 * @param {(request: SubjectRequest, step: string, payload: Record<string, unknown>, done: string) => Promise<void>} step
 */
function actions(request, ctx, step) {
  const open = request.status === 'received' || request.status === 'in_progress';
  if (!ctx.can('reviewer') || !open) return null;
  const named = { id: request.request_id };
  return h(
    'div',
    { class: 'row-actions' },
    request.status === 'received'
      ? h(
          'button',
          {
            type: 'button',
            class: 'button small',
            'data-action': 'start',
            onclick: () =>
              step(request, 'start', {}, t('subjects.started', named)).catch((error) =>
                ctx.toast(errorText(error), 'error'),
              ),
          },
          t('subjects.start'),
        )
      : null,
    request.kind === 'deletion'
      ? h(
          'button',
          {
            type: 'button',
            class: 'button small danger-outline',
            'data-action': 'delete',
            onclick: () =>
              formDialog({
                title: t('subjects.deleteTitle'),
                description: t('subjects.deleteDescription'),
                submitLabel: t('subjects.delete'),
                danger: true,
                onSubmit: () => step(request, 'delete', {}, t('subjects.deleted', named)),
              }),
          },
          t('subjects.delete'),
        )
      : null,
    request.kind === 'correction'
      ? h(
          'button',
          {
            type: 'button',
            class: 'button small',
            'data-action': 'request-information',
            onclick: () =>
              formDialog({
                title: t('subjects.correctionTitle'),
                description: t('subjects.correctionDescription'),
                fields: [
                  {
                    name: 'busi_water_no',
                    label: t('subjects.application'),
                    type: 'select',
                    required: true,
                    options: request.applications.map((s) => /** @type {[string, string]} */ ([s, s])),
                  },
                  {
                    name: 'requested_fields',
                    label: t('subjects.fields'),
                    type: 'multiselect',
                    required: true,
                    options: ctx.meta.amendable_fields.map((f) => /** @type {[string, string]} */ ([f, f])),
                  },
                  {
                    name: 'reason_codes',
                    label: t('subjects.reasonCodes'),
                    type: 'multiselect',
                    required: true,
                    options: (ctx.meta.codes['reason'] ?? []).map(
                      (c) => /** @type {[string, string]} */ ([c.code, c.code]),
                    ),
                  },
                  { name: 'reason', label: t('subjects.reason'), type: 'textarea', maxlength: 500 },
                ],
                submitLabel: t('subjects.askInformation'),
                onSubmit: (values) =>
                  step(
                    request,
                    'request-information',
                    {
                      busi_water_no: values['busi_water_no'],
                      requested_fields: (values['requested_fields'] ?? '').split(',').filter(Boolean),
                      reason_codes: (values['reason_codes'] ?? '').split(',').filter(Boolean),
                      ...(values['reason'] ? { reason: values['reason'] } : {}),
                    },
                    t('subjects.informationAsked', named),
                  ),
              }),
          },
          t('subjects.askInformation'),
        )
      : null,
    h(
      'button',
      {
        type: 'button',
        class: 'button small danger-outline',
        'data-action': 'refuse',
        onclick: () =>
          formDialog({
            title: t('subjects.refuseTitle'),
            fields: [
              {
                name: 'reason_code',
                label: t('subjects.reasonCode'),
                type: 'select',
                required: true,
                options: REFUSAL_CODES.map(
                  (c) => /** @type {[string, string]} */ ([c, t(`subjects.refusal.${c}`)]),
                ),
              },
              {
                name: 'reason',
                label: t('subjects.reason'),
                type: 'textarea',
                required: true,
                maxlength: 500,
              },
            ],
            submitLabel: t('subjects.refuse'),
            danger: true,
            onSubmit: (values) =>
              step(
                request,
                'refuse',
                { reason_code: values['reason_code'], reason: values['reason'] },
                t('subjects.refused', named),
              ),
          }),
      },
      t('subjects.refuse'),
    ),
  );
}

/**
 * @param {SubjectRequest} request
 * @param {HTMLElement | null} stepButtons
 */
function row(request, stepButtons) {
  return h(
    'tr',
    { 'data-request': request.request_id, class: request.overdue ? 'overdue' : '' },
    h('td', {}, mono(request.request_id)),
    h('td', {}, t(`subjects.kind.${request.kind}`)),
    h(
      'td',
      {},
      h(
        'span',
        { class: `badge subject-${request.status}`, 'data-status': request.status },
        t(`subjects.status.${request.status}`),
      ),
      request.restricted_until === null
        ? null
        : h(
            'div',
            { class: 'small muted' },
            t('subjects.until', { date: formatTime(request.restricted_until) }),
          ),
      request.reason_code === null ? null : h('div', { class: 'small muted' }, request.reason_code),
    ),
    h(
      'td',
      { class: 'nowrap' },
      formatTime(request.due_at),
      request.overdue
        ? h('span', { class: 'badge danger', 'data-overdue': 'true' }, ` ${t('subjects.overdue')}`)
        : null,
    ),
    h('td', {}, mono(request.app_id)),
    h(
      'td',
      {},
      request.applications.map((serial) =>
        h('div', {}, h('a', { href: `/console/applications/${serial}` }, mono(serial))),
      ),
    ),
    h('td', {}, stepButtons),
  );
}
