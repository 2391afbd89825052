/**
 * What the apps page holds: only whether it was left (late answers are dropped); the apps and
 * their endpoints are drawn as they arrive.
 */

/**
 * @typedef {{ app_id: string, name: string, status: string, created_at: number }} App
 * @typedef {{ id: string, app_id: string, url: string, status: string, events: string[] | null }} Endpoint
 * @typedef {{ app_secret: string, previous_secrets_expire_at: number }} Rotated
 * @typedef {{ app_id: string, app_secret: string }} Created
 * @typedef {{ stopped: boolean }} AppsState
 */

/** @returns {AppsState} */
export const appsState = () => ({ stopped: false });

/** An app's own webhook endpoints. @param {Endpoint[]} endpoints @param {App} app */
export const endpointsOf = (endpoints, app) => endpoints.filter((e) => e.app_id === app.app_id);
