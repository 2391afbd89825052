import { api } from './api.js';
import { openModal } from './dialog.js';
import { h, replace, uid } from './dom.js';
import { t } from './i18n.js';

/**
 * The session's idle end, seen from the page: the service ends a session after `idle_timeout`
 * seconds without a request (PCI DSS 8.2.8). Before that, the page warns and offers to stay signed
 * in (WCAG 2.2.1): "Stay signed in" is a request that counts as use, so the service really extends
 * the session. When the time has passed, the page asks whether the session still lives (that
 * question does not keep it alive once it has ended) and, if not, goes back to sign-in instead of
 * waiting for the next click.
 */
let warnTimer = /** @type {ReturnType<typeof setTimeout> | undefined} */ (undefined);
let endTimer = /** @type {ReturnType<typeof setTimeout> | undefined} */ (undefined);
let tick = /** @type {ReturnType<typeof setInterval> | undefined} */ (undefined);
let idleSeconds = 0;
let endsAt = 0;
/** @type {{ ended: () => void, signOut: () => void }} */
let handlers = { ended: () => {}, signOut: () => {} };
/** @type {{ close: (value: boolean) => void } | null} */
let warning = null;

/** How long before the end the warning comes: two minutes, less for a short time-out. */
export const warningSeconds = (/** @type {number} */ idle) => Math.min(120, Math.floor(idle / 3));

/** @param {number} seconds @param {{ ended: () => void, signOut: () => void }} on */
export function watchIdle(seconds, on) {
  idleSeconds = seconds;
  handlers = on;
  activity();
}

export function stopWatchingIdle() {
  clearTimeout(warnTimer);
  clearTimeout(endTimer);
  closeWarning();
  idleSeconds = 0;
}

/** Every request of the page counts as use. */
export function activity() {
  if (idleSeconds <= 0) return;
  clearTimeout(warnTimer);
  clearTimeout(endTimer);
  closeWarning();
  endsAt = Date.now() + idleSeconds * 1000;
  warnTimer = setTimeout(warn, (idleSeconds - warningSeconds(idleSeconds)) * 1000);
  endTimer = setTimeout(check, idleSeconds * 1000 + 1000);
}

function closeWarning() {
  clearInterval(tick);
  const open = warning;
  warning = null;
  open?.close(false);
}

function warn() {
  if (warning !== null) return;
  const titleId = uid('idle-title');
  const textId = uid('idle-text');
  const remaining = h('strong', { class: 'idle-remaining' });
  const show = () => {
    const seconds = Math.max(0, Math.round((endsAt - Date.now()) / 1000));
    replace(remaining, `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`);
  };
  show();
  const stay = h(
    'button',
    { type: 'button', class: 'button primary', onclick: () => void stayed() },
    t('idle.stay'),
  );
  const leave = h(
    'button',
    { type: 'button', class: 'button', onclick: () => handlers.signOut() },
    t('idle.signOut'),
  );
  const dialog = h(
    'dialog',
    {
      class: 'dialog idle-warning',
      role: 'alertdialog',
      'aria-labelledby': titleId,
      'aria-describedby': textId,
    },
    h(
      'div',
      { class: 'dialog-body' },
      h('h2', { id: titleId }, t('idle.title')),
      h('p', { id: textId }, t('idle.text'), ' ', remaining),
      h('div', { class: 'dialog-actions' }, leave, stay),
    ),
  );
  // Escape means "I am here": the same as staying.
  dialog.addEventListener('cancel', (event) => {
    event.preventDefault();
    void stayed();
  });
  warning = openModal(dialog, () => {});
  tick = setInterval(show, 1000);
  stay.focus();
}

async function stayed() {
  try {
    // Not a background request: the service counts it as use and extends the session.
    const session = await api('GET', '/session');
    if (session.signed_in === true) activity();
    else handlers.ended();
  } catch {
    // Unreachable service: the warning stays, and the end check still runs.
  }
}

async function check() {
  try {
    const session = await api('GET', '/session', undefined, { background: true });
    if (session.signed_in !== true) handlers.ended();
  } catch {
    // Unreachable service: the next action will tell.
  }
}
