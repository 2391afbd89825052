import { api } from '../api.js';
import { formDialog } from '../dialog.js';
import { formatTime, h, replace } from '../dom.js';
import { t } from '../i18n.js';
import { errorText } from '../ui.js';
import { askPurpose } from './revealPurpose.js';

/**
 * The review claim of an application in review: who holds it, until when, and what the operator
 * can do next. Starting a review claims it; approving, rejecting or requesting information ends
 * it (the service does both with the move). Claim (when nobody holds it), release, reassign
 * (admins); and, for the holder, "Open for review": every identity field and image in
 * the clear in one audited action with one purpose (the card number stays a reveal of its own).
 * What was opened is masked again when the claim ends (released, lapsed, taken away) or the page
 * is left.
 * @param {{
 *   ctx: import('../context.js').PageContext,
 *   serial: string,
 *   onOpened: (fields: Record<string, unknown>) => void,
 *   onMasked: () => void,
 *   onChange: () => void,
 * }} options
 */
export function claimPanel({ ctx, serial, onOpened, onMasked, onChange }) {
  const element = h('div', { class: 'claim-panel', 'data-claim': '' });
  /** @type {{ username: string, expires_at: number } | null} */
  let claim = null;
  let opened = false;
  let stopped = false;
  /** @type {string | null | undefined} who held it at the last look (undefined: not looked yet) */
  let holderName;
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let lapse;
  const canAct = ctx.can(ctx.meta.acting_role);
  const mine = () => claim !== null && claim.username === ctx.session.username;

  function mask() {
    if (!opened) return;
    opened = false;
    onMasked();
  }

  async function refresh() {
    try {
      const claims = /** @type {{ busi_water_no: string, username: string, expires_at: number }[]} */ (
        await api('GET', '/claims', undefined, { background: true })
      );
      if (stopped) return;
      claim = claims.find((c) => c.busi_water_no === serial) ?? null;
    } catch (error) {
      replace(element, h('p', { class: 'form-error' }, errorText(error)));
      return;
    }
    const before = holderName;
    holderName = claim?.username ?? null;
    if (!mine()) mask();
    draw();
    if (before !== holderName) onChange();
  }

  /** @param {string} path @param {unknown} [body] */
  async function post(path, body) {
    try {
      return await api('POST', `/applications/${encodeURIComponent(serial)}/${path}`, body ?? {});
    } catch (error) {
      ctx.toast(errorText(error), 'error');
      return null;
    } finally {
      await refresh();
    }
  }

  function draw() {
    clearTimeout(lapse);
    if (claim !== null) {
      // The claim lapses on the server then: mask and show it free again.
      lapse = setTimeout(() => void refresh(), Math.max(0, claim.expires_at * 1000 - Date.now()) + 500);
    }
    const until = claim === null ? '' : formatTime(claim.expires_at).slice(11, 16);
    /** @param {string} key @param {string} label @param {() => void} onclick @param {string} [kind] */
    const button = (key, label, onclick, kind = '') =>
      h(
        'button',
        { type: 'button', class: `button small ${kind}`, 'data-focus-key': `claim-${key}`, onclick },
        label,
      );
    // Redrawn after a claim or release, the panel keeps the keyboard: on the same button, or on
    // its first one when that is gone (WCAG 2.4.3).
    const active = document.activeElement;
    const focusKey =
      active instanceof HTMLElement && element.contains(active) ? (active.dataset['focusKey'] ?? '') : null;
    const buttons = [];
    if (canAct && claim === null)
      buttons.push(button('claim', t('claim.claim'), () => void post('claim'), 'primary'));
    if (mine()) {
      if (!opened) buttons.push(button('open', t('claim.open'), () => void open(), 'primary'));
      buttons.push(button('release', t('claim.release'), () => void post('release').then(mask)));
    }
    if (claim !== null && !mine() && ctx.can('admin')) {
      buttons.push(button('release', t('claim.release'), () => void post('release')));
      buttons.push(button('reassign', t('claim.reassign'), () => void reassign()));
    }
    replace(
      element,
      h(
        'p',
        { class: 'claim-holder', role: 'status' },
        claim === null
          ? t('claim.free')
          : mine()
            ? t('claim.mine', { until })
            : t('claim.heldBy', { holder: claim.username, until }),
      ),
      h('div', { class: 'claim-actions' }, buttons),
      canAct ? h('p', { class: 'claim-next small' }, nextStep()) : null,
    );
    if (focusKey !== null && element.isConnected)
      /** @type {HTMLElement | null} */ (
        element.querySelector(`[data-focus-key="${focusKey}"]`) ??
          element.querySelector('button') ??
          document.querySelector('main h1')
      )?.focus();
  }

  /** What this operator can do now, in words. */
  function nextStep() {
    if (claim === null) return t('claim.nextFree');
    if (mine()) return opened ? t('claim.nextOpened') : t('claim.nextMine');
    return ctx.can('admin') ? t('claim.nextAdmin') : t('claim.nextOther');
  }

  async function open() {
    await askPurpose(ctx.meta.reveal_purposes, t('claim.allFields'), async (why) => {
      const result = await api('POST', `/applications/${encodeURIComponent(serial)}/open-for-review`, why);
      if (stopped) return;
      opened = true;
      onOpened(result.fields);
      draw();
    });
  }

  async function reassign() {
    await formDialog({
      title: t('claim.reassign'),
      fields: [{ name: 'username', label: t('claim.reassignTo'), required: true, maxlength: 64 }],
      submitLabel: t('claim.reassign'),
      onSubmit: async (values) => {
        await api('POST', `/applications/${encodeURIComponent(serial)}/reassign`, {
          username: values['username'],
        });
      },
    });
    await refresh();
  }

  void refresh();
  return {
    element,
    /** Looks again (after a move that may have started or ended a claim). */
    refresh,
    /** Whether this operator may decide now: they hold the claim, or nobody does. */
    mayDecide: () => claim === null || mine(),
    stop: () => {
      stopped = true;
      clearTimeout(lapse);
    },
  };
}
