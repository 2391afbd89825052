import { h } from './dom.js';

/**
 * A short message in the live region (read out by screen readers), gone after a few seconds.
 * @param {string} message
 * @param {'success' | 'error' | 'info'} [kind]
 */
export function toast(message, kind = 'info') {
  const region = document.getElementById('toasts');
  if (region === null) return;
  const item = h('div', { class: `toast toast-${kind}` }, message);
  region.append(item);
  setTimeout(() => item.remove(), kind === 'error' ? 8000 : 4000);
}
