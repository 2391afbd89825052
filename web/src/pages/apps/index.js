import { replace } from '../../dom.js';
import { t } from '../../i18n.js';
import { errorText } from '../../ui.js';
import { createApp, fetchApps, rotateSecret, setAppStatus } from './load.js';
import { appsState } from './state.js';
import { appsView, askDisable, askRotation, showCreated, showRotated } from './view.js';

/**
 * Apps (the partners) with their webhook endpoints: create one (its secret is shown once), rotate
 * its secret, disable or enable it. Admins only. What it holds is in state.js, how it loads in
 * load.js, what it shows in view.js; this file wires them.
 */

/** @typedef {import('./state.js').App} App */

/** @type {import('../../context.js').Page} */
export function renderApps(main, ctx) {
  ctx.setTitle(t('apps.title'));
  const state = appsState();

  async function load() {
    try {
      const [apps, endpoints] = await fetchApps();
      if (state.stopped) return;
      view.shown(apps, endpoints, { rotate, setStatus });
    } catch (error) {
      if (!state.stopped) view.failed(error);
    }
  }

  /** @param {App} app */
  async function rotate(app) {
    /** @type {import('./state.js').Rotated | null} */
    let rotated = null;
    const done = await askRotation(app, async (overlapHours) => {
      rotated = await rotateSecret(app, overlapHours);
    });
    if (!done || rotated === null) return;
    // Set in the dialog's callback, which tsc does not follow.
    await showRotated(app, /** @type {import('./state.js').Rotated} */ (rotated));
  }

  /** @param {App} app @param {'disable' | 'enable'} action */
  async function setStatus(app, action) {
    const run = async () => {
      await setAppStatus(app, action);
      ctx.toast(t(`apps.${action}d`, { name: app.name }), 'success');
      await load();
    };
    if (action === 'enable') return run().catch((error) => ctx.toast(errorText(error), 'error'));
    await askDisable(app, run);
  }

  /** @param {HTMLInputElement} name */
  async function create(name) {
    try {
      const created = await createApp(name.value);
      const appName = name.value;
      name.value = '';
      await load();
      await showCreated(appName, created);
    } catch (error) {
      ctx.toast(errorText(error), 'error');
    }
  }

  const view = appsView((name) => void create(name));
  replace(main, view.element);
  void load();
  return () => {
    state.stopped = true;
  };
}
