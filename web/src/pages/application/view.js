import { formatTime, h, replace } from '../../dom.js';
import { t } from '../../i18n.js';
import { errorPanel, loading, mono, statusBadge } from '../../ui.js';
import { riskList, timeline } from '../applicationHistory.js';
import { fieldGroups, fieldLabel } from '../applicationFields.js';
import { documentGallery } from '../applicationDocuments.js';
import { screeningPanel } from '../screening.js';
import { pepPanel } from '../pepMatches.js';
import { riskRatingPanel } from '../riskRating.js';
import { fieldLists, reasonCodeList, reasonCodesField, requestedFieldsField } from '../applicationOutcome.js';

/**
 * What the application page shows: a header card (serial, status, partner, card, the reason, the
 * review claim and the moves the operator may make), then the fields and images beside screening,
 * risk flags, history and events. Also the fields of a move's dialog.
 */

/** @typedef {import('../../context.js').PageContext} PageContext */
/** @typedef {import('./state.js').View} View */
/** @typedef {import('./state.js').Move} Move */

/**
 * What a drawing of the application takes: the view and what the page knows beside it, and the
 * handlers of its controls.
 * @typedef {{
 *   ctx: PageContext,
 *   view: View,
 *   appName: string,
 *   revealed: Map<string, unknown>,
 *   canAct: boolean,
 *   claim: { element: HTMLElement, mayDecide: () => boolean },
 *   eventsBox: HTMLElement,
 *   reveal: (field: string) => Promise<void>,
 *   hide: (field: string) => void,
 *   act: (move: Move) => Promise<void>,
 *   reload: () => void,
 * }} Drawing
 */

/**
 * The page's frame, drawn into `main` at once: the back link and the body (loading until the
 * application arrives); the events' box goes into the body with the application.
 * @param {HTMLElement} main
 */
export function applicationFrame(main) {
  const body = h('div', { class: 'application-body' });
  const eventsBox = h('div', {}, loading());
  const back = h('a', { href: '/console/', class: 'back-link' }, `← ${t('application.back')}`);
  replace(main, h('div', { class: 'page' }, back, body));
  replace(body, loading());
  return { body, eventsBox };
}

/** @param {HTMLElement} body @param {Drawing} drawing */
export function drawApplication(body, drawing) {
  const { ctx, view: v, revealed, canAct, reveal, hide } = drawing;
  /** @type {Map<string, string[]>} */
  const flagged = new Map();
  for (const flag of v.risk_flags) {
    for (const f of flag.fields)
      flagged.set(f, [...(flagged.get(f) ?? []), t(`risk.${flag.code}`, flag.params)]);
  }
  const input = { ctx, application: v.application, revealed, canReveal: canAct, flagged, reveal, hide };
  replace(
    body,
    headerCard(drawing),
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
          reload: drawing.reload,
          fieldLabel,
        }),
        pepPanel(v.pep_matches ?? [], { fieldLabel }),
        riskRatingPanel(v.risk, { ctx, fieldLabel }),
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
          drawing.eventsBox,
        ),
      ),
    ),
  );
}

/** The application could not be loaded. @param {HTMLElement} body @param {string} serial @param {unknown} error */
export const drawFailure = (body, serial, error) => replace(body, h('h1', {}, serial), errorPanel(error));

/** @param {Drawing} drawing */
function headerCard({ ctx, view: v, appName, canAct, claim, act }) {
  return h(
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
      : h('p', { class: 'status-reason' }, h('strong', {}, `${t('application.reason')}: `), v.status_reason),
    v.status === 'IN_REVIEW' ? claim.element : null,
    v.status === 'SUBMITTED' && canAct
      ? h('p', { class: 'claim-next small', 'data-next': 'review' }, t('claim.nextSubmitted'))
      : null,
    reasonCodeList(ctx, v.reason_codes),
    v.status === 'SUPPLEMENT_REQUIRED' ? fieldLists({ requested_fields: v.requested_fields ?? [] }) : null,
    moveButtons(ctx, v, canAct, claim, act) ??
      (canAct
        ? h('p', { class: 'muted small' }, t('application.final'))
        : h('p', { class: 'muted small' }, t('application.readOnly'))),
  );
}

/**
 * The moves the application's state allows, as buttons; null when the operator may make none.
 * @param {PageContext} ctx
 * @param {View} v
 * @param {boolean} canAct
 * @param {{ mayDecide: () => boolean }} claim
 * @param {(move: Move) => Promise<void>} act
 */
function moveButtons(ctx, v, canAct, claim, act) {
  if (!canAct) return null;
  // In review, someone else's claim leaves this operator nothing to decide (the panel says why).
  if (v.status === 'IN_REVIEW' && !claim.mayDecide()) return h('div', { class: 'actions' });
  const moves = ctx.meta.moves[v.status] ?? [];
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

/** @param {string} label @param {Node | string} value */
const metaItem = (label, value) => h('div', {}, h('dt', {}, label), h('dd', {}, value));

/**
 * The fields a move's dialog asks for: the requested fields, reason codes, a reason, the details
 * the move needs and those it may carry. None: the move needs nothing but a click.
 * @param {PageContext} ctx
 * @param {Move} move
 */
export function moveFields(ctx, move) {
  return [
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
}
