import { formatTime, h } from '../dom.js';
import { has, statusLabel, t } from '../i18n.js';
import { fieldLabel } from './applicationFields.js';

/**
 * An audit row's details as an operator reads them: each name a label, each value in words (a
 * status, a field, a purpose, a role, a time), never raw JSON. A name or value the console has no
 * word for is shown with its underscores as spaces.
 */

/** `wrong_code` -> "wrong code". @param {string} text */
const spaced = (text) => text.replace(/_/g, ' ');

/** @param {string} name */
export function detailLabel(name) {
  if (has(`audit.detail.${name}`)) return t(`audit.detail.${name}`);
  if (has(`field.${name}`)) return fieldLabel(name);
  if (has(`application.${name}`)) return t(`application.${name}`);
  const words = spaced(name);
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** @param {string} name @param {unknown} value @returns {string} */
export function detailValue(name, value) {
  if (value === null || value === undefined) return '—';
  if (typeof value === 'boolean') return t(value ? 'common.yes' : 'common.no');
  if (typeof value === 'number')
    return /_at$/.test(name) && value > 1e9
      ? formatTime(value > 1e12 ? Math.floor(value / 1000) : value)
      : String(value);
  if (Array.isArray(value)) return value.map((item) => detailValue(name, item)).join(' · ');
  if (typeof value === 'object')
    return Object.entries(value)
      .map(([key, inner]) => `${detailLabel(key)}: ${detailValue(key, inner)}`)
      .join('; ');
  const text = String(value);
  if (['from', 'to', 'status', 'previous_status'].includes(name) && has(`status.${text}`))
    return statusLabel(text);
  if (['field', 'fields', 'requested_fields', 'amended_fields', 'changed_fields'].includes(name))
    return fieldLabel(text);
  if (name === 'purpose' && has(`purpose.${text}`)) return t(`purpose.${text}`);
  if (name === 'role' && has(`role.${text}`)) return t(`role.${text}`);
  if (has(`audit.value.${text}`)) return t(`audit.value.${text}`);
  return /^[a-z]+(_[a-z]+)+$/.test(text) ? spaced(text) : text;
}

/** @param {Record<string, unknown> | null} details */
export function detailsList(details) {
  // An empty value (no reason given) says nothing: left out.
  const given = Object.entries(details ?? {}).filter(([, value]) => value !== null && value !== '');
  if (given.length === 0) return '—';
  return h(
    'dl',
    { class: 'audit-details small' },
    given.map(([name, value]) =>
      h(
        'div',
        { 'data-detail': name },
        h('dt', {}, detailLabel(name)),
        h('dd', {}, detailValue(name, value)),
      ),
    ),
  );
}
