import { replace } from '../../dom.js';
import { t } from '../../i18n.js';
import { changeOperator, createOperator, fetchOperators } from './load.js';
import { operatorsState } from './state.js';
import { operatorsView } from './view.js';

/**
 * Operators and their roles: create one, change a role, set a password, disable or enable, see
 * each one's second factor and reset it (a lost authenticator: audited, ends their sessions).
 * Admins only; the API refuses an admin's change to their own account. What it holds is in
 * state.js, how it loads in load.js, what it shows in view.js; this file wires them.
 */

/** @type {import('../../context.js').Page} */
export function renderOperators(main, ctx) {
  ctx.setTitle(t('operators.title'));
  const state = operatorsState();

  /** A request, then its toast and the table again. @param {() => Promise<unknown>} send @param {string} done */
  const changed = async (send, done) => {
    await send();
    ctx.toast(done, 'success');
    await load();
  };
  /** @type {import('./view.js').Change} */
  const change = (op, what, payload, done) => changed(() => changeOperator(op.username, what, payload), done);

  async function load() {
    try {
      const operators = await fetchOperators();
      if (state.stopped) return;
      view.shown(operators, change);
    } catch (error) {
      if (!state.stopped) view.failed(error);
    }
  }

  const view = operatorsView(ctx, (operator, done) => changed(() => createOperator(operator), done));
  replace(main, view.element);
  void load();
  return () => {
    state.stopped = true;
  };
}
