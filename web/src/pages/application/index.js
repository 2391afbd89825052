import { api, ApiError, query } from '../../api.js';
import { formDialog } from '../../dialog.js';
import { formatTime, h, replace } from '../../dom.js';
import { statusLabel, t } from '../../i18n.js';
import { errorPanel, errorText, loading, mono, statusBadge } from '../../ui.js';
import { eventList } from '../applicationEvents.js';
import { riskList, timeline } from '../applicationHistory.js';
import { fieldGroups, fieldLabel } from '../applicationFields.js';
import { documentGallery } from '../applicationDocuments.js';
import { screeningPanel } from '../screening.js';
import { askPurpose } from '../revealPurpose.js';
import { claimPanel } from '../reviewClaim.js';
import {
  fieldLists,
  moveBody,
  reasonCodeList,
  reasonCodesField,
  requestedFieldsField,
} from '../applicationOutcome.js';

/**
 * One application: its fields (masked, revealable by reviewers), images, risk flags, history,
 * events with their webhook deliveries, and the moves its state allows for the operator's role.
 * Revealed values live in this page's memory only: leaving the page drops them.
 */

/**
 * @typedef {import('../applicationHistory.js').RiskFlag} RiskFlag
 * @typedef {import('../applicationHistory.js').Transition} Transition
 * @typedef {{
 *   busi_water_no: string, app_id: string, status: string, status_reason: string | null, reason_codes?: string[], requested_fields?: string[], cert_type: string,
 *   card_no_masked: string, version: number, created_at: number, updated_at: number,
 *   application: Record<string, unknown>, history: Transition[], risk_flags: RiskFlag[],
 *   documents?: Record<string, import('../applicationDocuments.js').DocumentOutcome>,
 *   screening_hits?: import('../screening.js').ScreeningHit[],
 * }} View
 */

const REFRESH_MS = 5000;

/** @type {import('../../context.js').Page} */
export function renderApplication(main, ctx, [serial = '']) {
  ctx.setTitle(serial);
  /** @type {View | null} */
  let view = null;
  /** @type {Map<string, unknown>} */
  const revealed = new Map();
  let stopped = false;
  let eventsJson = '';
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer;
  const canAct = ctx.can(ctx.meta.acting_role);
  const claim = claimPanel({
    ctx,
    serial,
    onOpened: (fields) => {
      for (const [name, value] of Object.entries(fields)) revealed.set(name, value);
      keepingFocus(draw);
    },
    onMasked: () => {
      revealed.clear();
      keepingFocus(draw);
    },
    // Who holds the review decides which moves this operator is offered.
    onChange: () => keepingFocus(draw),
  });

  const body = h('div', { class: 'application-body' });
  const eventsBox = h('div', {}, loading());
  const back = h('a', { href: '/console/', class: 'back-link' }, `← ${t('application.back')}`);
  replace(main, h('div', { class: 'page' }, back, body));
  replace(body, loading());

  /**
   * Re-renders a part, keeping the keyboard focus on "the same" button when it is still there, and
   * never leaving it on the body (WCAG 2.4.3): the heading has no focus key, and once a dialog had
   * closed onto it, a redraw (the reveal's fresh view, the partner's name arriving) dropped the
   * focus to the body. The heading takes it back then.
   */
  const keepingFocus = (/** @type {() => void} */ update) => {
    const active = document.activeElement;
    const key = active instanceof HTMLElement ? active.dataset['focusKey'] : undefined;
    update();
    if (key !== undefined)
      /** @type {HTMLElement | null} */ (main.querySelector(`[data-focus-key="${key}"]`))?.focus();
    if (active !== document.body && document.activeElement === document.body)
      /** @type {HTMLElement | null} */ (main.querySelector('h1'))?.focus({ preventScroll: true });
  };

  /** The partner's name, beside its app id (from the queue's listing, which carries it). */
  let appName = '';
  async function loadAppName() {
    try {
      const page = await api('GET', `/applications${query({ busi_water_no: serial, limit: 1 })}`, undefined, {
        background: true,
      });
      appName = page.items[0]?.app_name ?? '';
      if (!stopped && appName !== '') keepingFocus(draw);
    } catch {
      // The id alone still says which partner it is.
    }
  }

  async function load() {
    try {
      const first = view === null;
      view = await api('GET', `/applications/${encodeURIComponent(serial)}`);
      if (stopped) return;
      keepingFocus(draw);
      // Arriving on the page, the keyboard starts at its heading.
      if (first) /** @type {HTMLElement | null} */ (main.querySelector('h1'))?.focus({ preventScroll: true });
    } catch (error) {
      if (!stopped) replace(body, h('h1', {}, serial), errorPanel(error));
    }
  }

  async function loadEvents() {
    clearTimeout(timer);
    try {
      const events = await api('GET', `/applications/${encodeURIComponent(serial)}/events`, undefined, {
        background: true,
      });
      const json = JSON.stringify(events);
      if (!stopped && json !== eventsJson) {
        eventsJson = json;
        keepingFocus(() => replace(eventsBox, eventList(events, { ctx, reload: () => void loadEvents() })));
      }
    } catch (error) {
      if (!stopped && !(error instanceof ApiError && error.status === 401))
        replace(eventsBox, errorPanel(error));
    }
    if (!stopped) timer = setTimeout(() => void loadEvents(), REFRESH_MS);
  }

  /** The purpose given at the first reveal of this visit; the later ones give it again. */
  /** @type {{ purpose: string, purpose_text?: string } | null} */
  let purpose = null;

  /** @param {string} field */
  async function reveal(field) {
    /** @param {{ purpose: string, purpose_text?: string }} why */
    const show = async (why) => {
      const result = await api('POST', `/applications/${encodeURIComponent(serial)}/reveal`, {
        field,
        ...why,
      });
      if (stopped) return;
      revealed.set(field, result.value);
      keepingFocus(draw);
    };
    if (purpose === null) {
      purpose = await askPurpose(ctx.meta.reveal_purposes, fieldLabel(field), show);
      return;
    }
    try {
      await show(purpose);
    } catch (error) {
      ctx.toast(errorText(error), 'error');
    }
  }

  /** @param {string} field */
  function hide(field) {
    revealed.delete(field);
    keepingFocus(draw);
  }

  /** @param {{ action: string, to: string, reason_required: boolean, codes_required: boolean, fields_required: boolean, details_required: string[], details_optional: string[] }} move */
  async function act(move) {
    if (view === null) return;
    const version = view.version;
    const send = async (/** @type {Record<string, string>} */ extra) => {
      view = await api('POST', `/applications/${encodeURIComponent(serial)}/${move.action}`, {
        version,
        ...moveBody(extra),
      });
      ctx.toast(t('application.moved', { status: statusLabel(move.to) }), 'success');
      draw();
      // The move may have started or ended a claim: the panel says so before the focus moves.
      await claim.refresh();
      // Nothing outside an open modal takes the focus: the dialog's close moves it (below).
      if (document.querySelector('dialog[open]') === null) focusNextStep();
      void loadEvents();
    };
    const fields = [
      ...(move.fields_required ? [requestedFieldsField(ctx)] : []),
      ...(move.codes_required ? [reasonCodesField(ctx, move.action)] : []),
      ...(move.reason_required || move.codes_required
        ? [
            {
              name: 'reason',
              label: t('application.reason'),
              type: /** @type {const} */ ('textarea'),
              required: move.reason_required,
              maxlength: 256,
              hint: t('application.reasonHint'),
            },
          ]
        : []),
      ...move.details_required.map((name) => ({
        name,
        label: t(`application.${name}`),
        required: true,
        maxlength: 64,
      })),
      ...move.details_optional.map((name) => ({
        name,
        label: t(`application.${name}`),
        required: false,
        maxlength: 2048,
      })),
    ];
    // Approving and rejecting cannot be undone and tell the partner at once: always confirmed.
    if (fields.length === 0 && move.to !== 'APPROVED') {
      try {
        await send({});
      } catch (error) {
        ctx.toast(errorText(error), 'error');
        if (error instanceof ApiError && error.status === 409) void load();
      }
      return;
    }
    const done = await formDialog({
      title: t(`move.${move.action}.title`),
      description: t(`move.${move.action}.description`, { serial, days: ctx.meta.supplement_days }),
      fields,
      submitLabel: t(`move.${move.action}`),
      danger: move.to === 'REJECTED',
      onSubmit: send,
    });
    if (done) focusNextStep();
  }

  /**
   * The keyboard stays in the flow after a move: on opening a review just started, else on the
   * next move, else on the heading.
   */
  function focusNextStep() {
    /** @type {HTMLElement | null} */ (
      main.querySelector('[data-focus-key="claim-open"]') ??
        main.querySelector('.actions button') ??
        main.querySelector('h1')
    )?.focus();
  }

  function actions() {
    if (view === null || !canAct) return null;
    // In review, someone else's claim leaves this operator nothing to decide (the panel says why).
    if (view.status === 'IN_REVIEW' && !claim.mayDecide()) return h('div', { class: 'actions' });
    const moves = ctx.meta.moves[view.status] ?? [];
    if (moves.length === 0) return null;
    return h(
      'div',
      { class: 'actions', role: 'group', 'aria-label': t('application.actions') },
      moves.map((move) =>
        h(
          'button',
          {
            type: 'button',
            class: `button ${move.to === 'REJECTED' ? 'danger-outline' : 'primary'}`,
            'data-action': move.action,
            'data-focus-key': `move-${move.action}`,
            onclick: () => act(move),
          },
          t(`move.${move.action}`),
        ),
      ),
    );
  }

  function draw() {
    if (view === null) return;
    const v = view;
    ctx.setTitle(`${v.busi_water_no} · ${statusLabel(v.status)}`);
    /** @type {Map<string, string[]>} */
    const flagged = new Map();
    for (const flag of v.risk_flags) {
      for (const f of flag.fields)
        flagged.set(f, [...(flagged.get(f) ?? []), t(`risk.${flag.code}`, flag.params)]);
    }
    const input = { ctx, application: v.application, revealed, canReveal: canAct, flagged, reveal, hide };
    replace(
      body,
      h(
        'div',
        { class: 'app-header card' },
        h(
          'div',
          { class: 'app-title' },
          h('h1', { class: 'mono', tabindex: '-1' }, v.busi_water_no),
          statusBadge(v.status),
        ),
        h(
          'dl',
          { class: 'app-meta' },
          metaItem(
            t('queue.app'),
            appName === ''
              ? mono(v.app_id)
              : h('span', {}, appName, ' ', h('span', { class: 'muted' }, mono(v.app_id))),
          ),
          metaItem(t('queue.document'), t(`certType.${v.cert_type}`)),
          metaItem(t('queue.card'), mono(v.card_no_masked)),
          metaItem(t('queue.created'), formatTime(v.created_at)),
          metaItem(t('queue.updatedAt'), formatTime(v.updated_at)),
        ),
        v.status_reason === null
          ? null
          : h(
              'p',
              { class: 'status-reason' },
              h('strong', {}, `${t('application.reason')}: `),
              v.status_reason,
            ),
        v.status === 'IN_REVIEW' ? claim.element : null,
        v.status === 'SUBMITTED' && canAct
          ? h('p', { class: 'claim-next small', 'data-next': 'review' }, t('claim.nextSubmitted'))
          : null,
        reasonCodeList(ctx, v.reason_codes),
        v.status === 'SUPPLEMENT_REQUIRED'
          ? fieldLists({ requested_fields: v.requested_fields ?? [] })
          : null,
        actions() ??
          (canAct
            ? h('p', { class: 'muted small' }, t('application.final'))
            : h('p', { class: 'muted small' }, t('application.readOnly'))),
      ),
      h(
        'div',
        { class: 'columns' },
        h(
          'div',
          { class: 'column-main' },
          h(
            'section',
            { class: 'card', 'aria-labelledby': 'fields-title' },
            h('h2', { id: 'fields-title' }, t('application.fields')),
            fieldGroups(input),
          ),
          h(
            'section',
            { class: 'card', 'aria-labelledby': 'images-title' },
            h('h2', { id: 'images-title' }, t('application.images')),
            documentGallery(input, v.busi_water_no, v.documents),
          ),
        ),
        h(
          'div',
          { class: 'column-side' },
          screeningPanel(v.screening_hits ?? [], {
            ctx,
            serial: v.busi_water_no,
            reload: () => void load(),
            fieldLabel,
          }),
          h(
            'section',
            { class: 'card', 'aria-labelledby': 'risk-title' },
            h('h2', { id: 'risk-title' }, t('application.risk')),
            riskList(v.risk_flags),
          ),
          h(
            'section',
            { class: 'card', 'aria-labelledby': 'history-title' },
            h('h2', { id: 'history-title' }, t('application.history')),
            timeline(ctx, v.history),
          ),
          h(
            'section',
            { class: 'card', 'aria-labelledby': 'events-title' },
            h('h2', { id: 'events-title' }, t('application.events')),
            eventsBox,
          ),
        ),
      ),
    );
  }

  void load().then(() => Promise.all([loadEvents(), loadAppName()]));
  return () => {
    stopped = true;
    clearTimeout(timer);
    claim.stop();
    revealed.clear();
  };
}

/** @param {string} label @param {Node | string} value */
const metaItem = (label, value) => h('div', {}, h('dt', {}, label), h('dd', {}, value));
