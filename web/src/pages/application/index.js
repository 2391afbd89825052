import { ApiError } from '../../api.js';
import { formDialog } from '../../dialog.js';
import { replace } from '../../dom.js';
import { statusLabel, t } from '../../i18n.js';
import { errorPanel, errorText } from '../../ui.js';
import { eventList } from '../applicationEvents.js';
import { fieldLabel } from '../applicationFields.js';
import { askPurpose } from '../revealPurpose.js';
import { claimPanel } from '../reviewClaim.js';
import { approveDialog } from '../riskApproval.js';
import { eventsLoader, fetchAppName, fetchApplication, postMove, revealField } from './load.js';
import { applicationState } from './state.js';
import { applicationFrame, drawApplication, drawFailure, moveFields } from './view.js';

/**
 * One application: its fields (masked, revealable by reviewers), images, risk flags, history,
 * events with their webhook deliveries, and the moves its state allows for the operator's role.
 * Revealed values live in this page's memory only: leaving the page drops them. What it holds is
 * in state.js, how it loads in load.js, what it shows in view.js; this file wires them, and
 * below the page are its two longer handlers: a reveal and a move.
 */

/**
 * What the handlers share with the page.
 * @typedef {{
 *   ctx: import('../../context.js').PageContext,
 *   main: HTMLElement,
 *   serial: string,
 *   state: import('./state.js').ApplicationState,
 *   claim: ReturnType<typeof claimPanel>,
 *   draw: () => void,
 *   redraw: () => void,
 *   load: () => Promise<void>,
 *   loadEvents: () => Promise<void>,
 * }} Parts
 * redraw: draw, keeping the focus where it was
 */

/** @type {import('../../context.js').Page} */
export function renderApplication(main, ctx, [serial = '']) {
  ctx.setTitle(serial);
  const state = applicationState();
  const canAct = ctx.can(ctx.meta.acting_role);
  const claim = claimPanel({
    ctx,
    serial,
    onOpened: (fields) => {
      for (const [name, value] of Object.entries(fields)) state.revealed.set(name, value);
      redraw();
    },
    onMasked: () => {
      state.revealed.clear();
      redraw();
    },
    // Who holds the review decides which moves this operator is offered.
    onChange: () => redraw(),
  });
  const { body, eventsBox } = applicationFrame(main);

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
  const redraw = () => keepingFocus(draw);

  function draw() {
    const view = state.view;
    if (view === null) return;
    ctx.setTitle(`${view.busi_water_no} · ${statusLabel(view.status)}`);
    drawApplication(body, {
      ctx,
      view,
      appName: state.appName,
      revealed: state.revealed,
      canAct,
      claim,
      eventsBox,
      reveal: (field) => reveal(parts, field),
      hide: (field) => {
        state.revealed.delete(field);
        redraw();
      },
      act: (move) => act(parts, move),
      reload: () => void load(),
    });
  }

  async function load() {
    try {
      const first = state.view === null;
      state.view = await fetchApplication(serial);
      if (state.stopped) return;
      redraw();
      // Arriving on the page, the keyboard starts at its heading.
      if (first) /** @type {HTMLElement | null} */ (main.querySelector('h1'))?.focus({ preventScroll: true });
    } catch (error) {
      if (!state.stopped) drawFailure(body, serial, error);
    }
  }

  const events = eventsLoader(serial, {
    changed: (list) =>
      keepingFocus(() => replace(eventsBox, eventList(list, { ctx, reload: () => void events.load() }))),
    failed: (error) => replace(eventsBox, errorPanel(error)),
  });

  async function loadAppName() {
    try {
      state.appName = await fetchAppName(serial);
      if (!state.stopped && state.appName !== '') redraw();
    } catch {
      // The id alone still says which partner it is.
    }
  }

  /** @type {Parts} */
  const parts = { ctx, main, serial, state, claim, draw, redraw, load, loadEvents: events.load };
  void load().then(() => Promise.all([events.load(), loadAppName()]));
  return () => {
    state.stopped = true;
    events.stop();
    claim.stop();
    state.revealed.clear();
  };
}

/**
 * Reveals a field: the first reveal of the visit asks for the purpose (in a dialog that runs it),
 * the later ones give it again.
 * @param {Parts} parts
 * @param {string} field
 */
async function reveal({ ctx, serial, state, redraw }, field) {
  /** @param {import('./state.js').Purpose} why */
  const show = async (why) => {
    const result = await revealField(serial, field, why);
    if (state.stopped) return;
    state.revealed.set(field, result.value);
    redraw();
  };
  if (state.purpose === null) {
    state.purpose = await askPurpose(ctx.meta.reveal_purposes, fieldLabel(field), show);
    return;
  }
  try {
    await show(state.purpose);
  } catch (error) {
    ctx.toast(errorText(error), 'error');
  }
}

/**
 * Makes a move: at once when it needs nothing (but an approval, always confirmed), else through
 * its dialog.
 * @param {Parts} parts
 * @param {import('./state.js').Move} move
 */
async function act(parts, move) {
  const { ctx, serial, state } = parts;
  if (state.view === null) return;
  const version = state.view.version;
  const send = async (/** @type {Record<string, unknown>} */ extra) => {
    state.view = await postMove(serial, move.action, version, extra);
    ctx.toast(t('application.moved', { status: statusLabel(move.to) }), 'success');
    parts.draw();
    // The move may have started or ended a claim: the panel says so before the focus moves.
    await parts.claim.refresh();
    // Nothing outside an open modal takes the focus: the dialog's close moves it (below).
    if (document.querySelector('dialog[open]') === null) focusNextStep(parts.main);
    void parts.loadEvents();
  };
  const fields = moveFields(ctx, move);
  // Approving and rejecting cannot be undone and tell the partner at once: always confirmed.
  if (fields.length === 0 && move.to !== 'APPROVED') {
    try {
      await send({});
    } catch (error) {
      ctx.toast(errorText(error), 'error');
      if (error instanceof ApiError && error.status === 409) void parts.load();
    }
    return;
  }
  // An approval weighs the open risk factors: each acknowledged, a note for each high one.
  const done =
    move.to === 'APPROVED' && fields.length === 0
      ? await approveDialog({
          ctx,
          title: t(`move.${move.action}.title`),
          description: t(`move.${move.action}.description`, { serial }),
          submitLabel: t(`move.${move.action}`),
          risk: state.view.risk,
          fieldLabel,
          onSubmit: (acknowledgements) =>
            send(acknowledgements.length === 0 ? {} : { risk_acknowledgements: acknowledgements }),
        })
      : await formDialog({
          title: t(`move.${move.action}.title`),
          description: t(`move.${move.action}.description`, { serial, days: ctx.meta.supplement_days }),
          fields,
          submitLabel: t(`move.${move.action}`),
          danger: move.to === 'REJECTED',
          onSubmit: send,
        });
  if (done) focusNextStep(parts.main);
}

/**
 * The keyboard stays in the flow after a move: on opening a review just started, else on the
 * next move, else on the heading.
 * @param {HTMLElement} main
 */
function focusNextStep(main) {
  /** @type {HTMLElement | null} */ (
    main.querySelector('[data-focus-key="claim-open"]') ??
      main.querySelector('.actions button') ??
      main.querySelector('h1')
  )?.focus();
}
