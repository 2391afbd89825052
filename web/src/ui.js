import { h } from './dom.js';
import { statusLabel, t } from './i18n.js';

/** Small pieces every page uses. */

/** @param {string} status */
export const statusBadge = (status) =>
  h('span', { class: `badge status-${status.toLowerCase()}`, 'data-status': status }, statusLabel(status));

/**
 * The page title with optional actions on the right.
 * @param {string} title
 * @param {...(Node | null)} extra
 */
export const pageHeader = (title, ...extra) =>
  h('div', { class: 'page-header' }, h('h1', {}, title), h('div', { class: 'page-header-extra' }, ...extra));

/** @param {unknown} error */
export const errorText = (error) => (error instanceof Error ? error.message : String(error));

/** @param {unknown} error */
export const errorPanel = (error) =>
  h('div', { class: 'notice notice-error', role: 'alert' }, errorText(error));

/** @param {string} [text] */
export const loading = (text) => h('p', { class: 'loading', role: 'status' }, text ?? t('common.loading'));

/**
 * `operator:alice` -> "alice" with a kind; `caller:app_x` -> the app; `system`.
 * @param {string} actor
 */
export function actorLabel(actor) {
  const [kind, ...rest] = actor.split(':');
  const id = rest.join(':');
  if (kind === 'operator')
    return h('span', { class: 'actor' }, h('span', { class: 'actor-kind' }, t('actor.operator')), ' ', id);
  if (kind === 'caller')
    return h(
      'span',
      { class: 'actor' },
      h('span', { class: 'actor-kind' }, t('actor.caller')),
      ' ',
      h('span', { class: 'mono' }, id),
    );
  if (kind === 'policy')
    return h(
      'span',
      { class: 'actor' },
      h('span', { class: 'actor-kind' }, t('actor.policy')),
      ' ',
      h('span', { class: 'mono' }, id),
    );
  return h('span', { class: 'actor' }, kind === 'system' ? t('actor.system') : actor);
}

/**
 * A table with a visually hidden caption and column headers.
 * @param {string} caption
 * @param {(string | Node)[]} columns
 * @param {HTMLTableSectionElement} body
 * @param {string} [className]
 */
export function table(caption, columns, body, className = '') {
  return h(
    'div',
    { class: 'table-wrap' },
    h(
      'table',
      { class: `table ${className}` },
      h('caption', { class: 'sr-only' }, caption),
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          columns.map((c) => h('th', { scope: 'col' }, c)),
        ),
      ),
      body,
    ),
  );
}

/**
 * A row that says there is nothing to show.
 * @param {number} span
 * @param {string} text
 */
export const emptyRow = (span, text) => h('tr', {}, h('td', { colspan: span, class: 'empty' }, text));

/** An identifier (serial, app id, masked value): never translated, shown as it is. @param {string} text */
export const mono = (text) => h('span', { class: 'mono', translate: 'no' }, text);
