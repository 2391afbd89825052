import { api } from './api.js';

/**
 * The session's idle end, seen from the page: the service ends a session after `idle_timeout`
 * seconds without a request (PCI DSS 8.2.8). When that time has passed since the page's last
 * request, the page asks whether the session still lives (that question does not keep it alive
 * once it has ended) and, if not, goes back to sign-in instead of waiting for the next click.
 */
let timer = /** @type {ReturnType<typeof setTimeout> | undefined} */ (undefined);
let idleSeconds = 0;
/** @type {() => void} */
let onEnded = () => {};

/** @param {number} seconds @param {() => void} ended */
export function watchIdle(seconds, ended) {
  idleSeconds = seconds;
  onEnded = ended;
  activity();
}

export function stopWatchingIdle() {
  clearTimeout(timer);
  idleSeconds = 0;
}

/** Every request of the page counts as use. */
export function activity() {
  if (idleSeconds <= 0) return;
  clearTimeout(timer);
  timer = setTimeout(check, idleSeconds * 1000 + 1000);
}

async function check() {
  try {
    const session = await api('GET', '/session', undefined, { background: true });
    if (session.signed_in !== true) onEnded();
  } catch {
    // Unreachable service: the next action will tell.
  }
}
