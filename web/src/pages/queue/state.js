import { dayToSeconds } from '../../dom.js';

/**
 * What the queue holds: the filters (read from the address, written back to it), the cursors of
 * the pages turned through, and the serials already seen (to mark new arrivals).
 */

export const PAGE_SIZES = ['20', '50', '100'];

/** @typedef {{ busi_water_no: string, app_id: string, status: string, risk_tier?: string | null, cert_type: string, card_no_masked: string, created_at: number, updated_at: number, app_name?: string | null, name_masked?: string | null, claimed_by?: string | null }} Summary */

/** @typedef {{ status: string, app_id: string, from: string, to: string, serial: string, screening: string, risk_tier: string, sort: string, order: string, limit: string }} Filters */

/** The risk tiers the queue filters on (the API's `risk_tier`): none yet, then low to prohibited. */
export const RISK_TIERS = ['unrated', 'low', 'medium', 'high', 'prohibited'];

/**
 * @typedef {{
 *   filters: Filters,
 *   cursors: (string | null)[],
 *   nextCursor: string | null,
 *   seen: Set<string> | null,
 * }} QueueState
 * cursors: of the pages before this one, and of this one; seen: serials on screen at the last
 * load, to mark new ones
 */

/** @param {string} search the address's query @returns {QueueState} */
export function queueState(search) {
  const params = new URLSearchParams(search);
  const filters = {
    status: params.get('status') ?? '',
    app_id: params.get('app_id') ?? '',
    from: params.get('from') ?? '',
    to: params.get('to') ?? '',
    serial: params.get('serial') ?? '',
    screening: params.get('screening') === 'open' ? 'open' : '',
    risk_tier: RISK_TIERS.includes(params.get('risk_tier') ?? '')
      ? /** @type {string} */ (params.get('risk_tier'))
      : '',
    // By risk tier first (`risk`), or by creation alone ('').
    sort: params.get('sort') === 'risk' ? 'risk' : '',
    order: params.get('order') === 'asc' ? 'asc' : 'desc',
    limit: PAGE_SIZES.includes(params.get('limit') ?? '')
      ? /** @type {string} */ (params.get('limit'))
      : '20',
  };
  return { filters, cursors: [null], nextCursor: null, seen: null };
}

/** The creation days as the API's bounds, in seconds. @param {Filters} filters */
export const timeRange = (filters) => ({
  created_from: filters.from === '' ? undefined : dayToSeconds(filters.from, 'start'),
  created_to: filters.to === '' ? undefined : dayToSeconds(filters.to, 'end'),
});

/** The queue's address for the filters (defaults left out). @param {Filters} filters */
export function filtersAddress(filters) {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(filters)) {
    const isDefault = (name === 'order' && value === 'desc') || (name === 'limit' && value === '20');
    if (value !== '' && !isDefault) search.set(name, value);
  }
  const text = search.toString();
  return `/console/${text === '' ? '' : `?${text}`}`;
}

/**
 * The serials not on screen at the last load (none at the first load of a page), then remembers
 * these as seen.
 * @param {QueueState} state
 * @param {Summary[]} items
 * @returns {Set<string>}
 */
export function markSeen(state, items) {
  const seen = state.seen;
  const fresh =
    seen === null ? new Set() : new Set(items.map((i) => i.busi_water_no).filter((s) => !seen?.has(s)));
  state.seen = new Set([...(seen ?? []), ...items.map((i) => i.busi_water_no)]);
  return fresh;
}
