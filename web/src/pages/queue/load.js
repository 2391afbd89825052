import { api, query } from '../../api.js';
import { timeRange } from './state.js';

/**
 * How the queue loads: the counts and a page of applications together, again every POLL_MS while
 * the tab is visible, so new submissions appear without a reload.
 */

export const POLL_MS = 5000;

/** @typedef {import('./state.js').QueueState} QueueState */
/** @typedef {{ counts: Record<string, number>, total: number }} Counts */
/** @typedef {{ items: import('./state.js').Summary[], next_cursor: string | null }} Page */

/**
 * The counts per status and the page at the state's last cursor, for its filters.
 * @param {QueueState} state
 * @param {{ background: boolean }} options
 * @returns {Promise<[Counts, Page]>}
 */
function fetchQueue(state, options) {
  const filters = state.filters;
  const cursor = state.cursors[state.cursors.length - 1] ?? undefined;
  return Promise.all([
    api(
      'GET',
      `/applications/counts${query({ app_id: filters.app_id, ...timeRange(filters) })}`,
      undefined,
      options,
    ),
    api(
      'GET',
      `/applications${query({
        status: filters.status,
        app_id: filters.app_id,
        // A partner reference or the first characters of a serial, as a support call quotes them.
        q: filters.serial,
        screening: filters.screening,
        risk_tier: filters.risk_tier,
        sort: filters.sort,
        ...timeRange(filters),
        order: filters.order,
        limit: filters.limit,
        cursor,
      })}`,
      undefined,
      options,
    ),
  ]);
}

/** The apps, for the app filter's suggestions. @returns {Promise<{ app_id: string, name: string }[]>} */
export const fetchApps = () => api('GET', '/apps');

/**
 * The queue's loads: each one's answer goes to `shown` or `failed`, unless a newer load overtook it
 * or the page was left; the latest then schedules the next poll.
 * @param {QueueState} state
 * @param {{ shown: (counts: Counts, page: Page) => void, failed: (error: unknown) => void }} to
 */
export function queueLoader(state, { shown, failed }) {
  let stopped = false;
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer;
  /** Numbers the loads: an answer that a newer load overtook is dropped. */
  let latest = 0;

  /** @param {boolean} [background] a poll, not the operator's doing: it does not keep the session alive */
  async function load(background = false) {
    clearTimeout(timer);
    const ticket = ++latest;
    try {
      const [counts, page] = await fetchQueue(state, { background });
      if (stopped || ticket !== latest) return;
      shown(counts, page);
    } catch (error) {
      if (stopped || ticket !== latest) return;
      failed(error);
    }
    if (!stopped) timer = setTimeout(poll, POLL_MS);
  }

  function poll() {
    if (document.visibilityState === 'visible') void load(true);
    else timer = setTimeout(poll, POLL_MS);
  }

  return {
    load,
    stop: () => {
      stopped = true;
      clearTimeout(timer);
    },
  };
}
