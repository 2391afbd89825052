import { api } from '../../api.js';

/** The apps page's requests: the apps with every webhook endpoint, a new app, and its changes. */

/** @typedef {import('./state.js').App} App */
/** @typedef {import('./state.js').Endpoint} Endpoint */

/** @returns {Promise<[App[], Endpoint[]]>} */
export const fetchApps = () => Promise.all([api('GET', '/apps'), api('GET', '/webhooks')]);

/** @param {string} name @returns {Promise<import('./state.js').Created>} */
export const createApp = (name) => api('POST', '/apps', { name });

/**
 * A new secret; the old ones keep working for the overlap.
 * @param {App} app
 * @param {string | undefined} overlapHours the dialog's choice
 * @returns {Promise<import('./state.js').Rotated>}
 */
export const rotateSecret = (app, overlapHours) =>
  api('POST', `/apps/${encodeURIComponent(app.app_id)}/rotate-secret`, {
    overlap_seconds: Number(overlapHours) * 3600,
  });

/** @param {App} app @param {'disable' | 'enable'} action */
export const setAppStatus = (app, action) => api('POST', `/apps/${encodeURIComponent(app.app_id)}/${action}`);
