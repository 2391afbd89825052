import { t } from '../../i18n.js';
import { replace } from '../../dom.js';
import { fetchApps, queueLoader } from './load.js';
import { filtersAddress, markSeen, queueState } from './state.js';
import { queueView } from './view.js';

/**
 * The queue: applications in a table, filtered by status, app and creation day, found by serial
 * number, sorted by creation, a page at a time, with the counts per status above. It polls, so new
 * submissions appear without a reload. Filters live in the address (back, forward and reload keep
 * them); the page position does not. What it holds is in state.js, how it loads in load.js, what
 * it shows in view.js; this file wires them.
 */

/** @type {import('../../context.js').Page} */
export function renderQueue(main, ctx) {
  ctx.setTitle(t('queue.title'));
  const state = queueState(location.search);
  const loader = queueLoader(state, {
    shown: (counts, page) => {
      const fresh = markSeen(state, page.items);
      state.nextCursor = page.next_cursor;
      view.shown(counts, page.items, fresh, { pages: state.cursors.length, more: state.nextCursor !== null });
    },
    failed: (error) => view.failed(error),
  });

  /** @param {1 | -1} step */
  function turn(step) {
    if (step === 1 && state.nextCursor !== null) state.cursors.push(state.nextCursor);
    if (step === -1 && state.cursors.length > 1) state.cursors.pop();
    state.seen = null;
    void loader.load();
  }

  /** Filters into the address, back to the first page. */
  function apply() {
    history.replaceState(null, '', filtersAddress(state.filters));
    state.cursors = [null];
    state.seen = null;
    view.showSort();
    void loader.load();
  }

  const view = queueView(ctx, state.filters, { apply, turn });
  if (ctx.can('admin')) {
    fetchApps()
      .then((apps) => view.showApps(apps))
      .catch(() => {});
  }
  replace(main, view.element);
  void loader.load();
  return loader.stop;
}
