import { api, ApiError, query } from '../../api.js';
import { moveBody } from '../applicationOutcome.js';

/**
 * The application page's requests: the application, the partner's name, its events (again every
 * REFRESH_MS), a reveal and a move.
 */

const REFRESH_MS = 5000;

/** @typedef {import('./state.js').View} View */

/** @param {string} serial */
const path = (serial) => `/applications/${encodeURIComponent(serial)}`;

/** @param {string} serial @returns {Promise<View>} */
export const fetchApplication = (serial) => api('GET', path(serial));

/**
 * The partner's name, from the queue's listing (which carries it); '' when it has none.
 * @param {string} serial
 * @returns {Promise<string>}
 */
export async function fetchAppName(serial) {
  const page = await api('GET', `/applications${query({ busi_water_no: serial, limit: 1 })}`, undefined, {
    background: true,
  });
  return page.items[0]?.app_name ?? '';
}

/**
 * @param {string} serial
 * @param {string} field
 * @param {import('./state.js').Purpose} why
 * @returns {Promise<{ value: unknown }>}
 */
export const revealField = (serial, field, why) => api('POST', `${path(serial)}/reveal`, { field, ...why });

/**
 * A move at the version the operator saw, with the dialog's values.
 * @param {string} serial
 * @param {string} action
 * @param {number} version
 * @param {Record<string, unknown>} values the dialog's texts; an approval's `risk_acknowledgements` as they are
 * @returns {Promise<View>} the application after it
 */
export function postMove(serial, action, version, values) {
  const { risk_acknowledgements: acknowledgements, ...texts } = values;
  return api('POST', `${path(serial)}/${action}`, {
    version,
    ...moveBody(/** @type {Record<string, string>} */ (texts)),
    ...(acknowledgements === undefined ? {} : { risk_acknowledgements: acknowledgements }),
  });
}

/**
 * The events, loaded again every REFRESH_MS: `changed` hears of them when they differ from the last
 * answer, `failed` of an error (but a lost session, which the shell handles).
 * @param {string} serial
 * @param {{ changed: (events: import('../applicationEvents.js').AppEvent[]) => void, failed: (error: unknown) => void }} to
 */
export function eventsLoader(serial, { changed, failed }) {
  let stopped = false;
  let eventsJson = '';
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer;

  async function load() {
    clearTimeout(timer);
    try {
      const events = await api('GET', `${path(serial)}/events`, undefined, { background: true });
      const json = JSON.stringify(events);
      if (!stopped && json !== eventsJson) {
        eventsJson = json;
        changed(events);
      }
    } catch (error) {
      if (!stopped && !(error instanceof ApiError && error.status === 401)) failed(error);
    }
    if (!stopped) timer = setTimeout(() => void load(), REFRESH_MS);
  }

  return {
    load,
    stop: () => {
      stopped = true;
      clearTimeout(timer);
    },
  };
}
