/**
 * Building the DOM without innerHTML: every text goes in as a text node, so nothing an applicant
 * or a partner typed can become markup. No inline styles or handlers either (the CSP forbids them).
 */

/** @typedef {Node | string | number | null | undefined | false} Child */
/** @typedef {Record<string, string | number | boolean | null | undefined | EventListener>} Attrs */

/**
 * An element: `h('button', { class: 'primary', onclick: fn }, 'Save')`. `on*` attributes become
 * listeners; `true` sets a boolean attribute, `false`, null and undefined leave it out.
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Attrs} [attrs]
 * @param {...(Child | Child[])} children
 * @returns {HTMLElementTagNameMap[K]}
 */
export function h(tag, attrs = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === false || value === null || value === undefined) continue;
    if (typeof value === 'function') element.addEventListener(name.slice(2), value);
    else if (name === 'value' && 'value' in element) element.value = String(value);
    else element.setAttribute(name, value === true ? '' : String(value));
  }
  append(element, children);
  return element;
}

/**
 * @param {Element} parent
 * @param {(Child | Child[])[]} children
 */
export function append(parent, children) {
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    parent.append(typeof child === 'number' ? String(child) : child);
  }
}

/**
 * Replaces an element's children.
 * @param {Element} element
 * @param {...(Child | Child[])} children
 */
export function replace(element, ...children) {
  element.replaceChildren();
  append(element, children);
}

const pad = (/** @type {number} */ n) => String(n).padStart(2, '0');

/**
 * Unix seconds as local `YYYY-MM-DD HH:mm:ss`: unambiguous in both languages.
 * @param {number | null | undefined} seconds
 */
export function formatTime(seconds) {
  if (seconds === null || seconds === undefined) return '—';
  const d = new Date(seconds * 1000);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

/**
 * A local calendar day (`YYYY-MM-DD` from a date input) as Unix seconds, at its start or its end.
 * @param {string} day
 * @param {'start' | 'end'} edge
 */
export function dayToSeconds(day, edge) {
  const [y, m, d] = day.split('-').map(Number);
  const date = new Date(y ?? 1970, (m ?? 1) - 1, d ?? 1);
  if (edge === 'end') date.setHours(23, 59, 59);
  return Math.floor(date.getTime() / 1000);
}

/** A visually hidden text for screen readers. @param {string} text */
export const srOnly = (text) => h('span', { class: 'sr-only' }, text);

/**
 * The values of a form's named fields (checkboxes as booleans).
 * @param {HTMLFormElement} form
 * @returns {Record<string, string>}
 */
export function formValues(form) {
  /** @type {Record<string, string>} */
  const values = {};
  for (const element of Array.from(form.elements)) {
    if (
      (element instanceof HTMLInputElement ||
        element instanceof HTMLSelectElement ||
        element instanceof HTMLTextAreaElement) &&
      element.name !== ''
    ) {
      values[element.name] = element.value;
    }
  }
  return values;
}

let ids = 0;
/** A fresh element id, for label `for` and aria references. @param {string} prefix */
export const uid = (prefix) => `${prefix}-${++ids}`;

/**
 * A labelled form field: the label always names the input (keyboard and screen reader users).
 * @param {string} label
 * @param {HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement} control
 * @param {string} [hint]
 */
export function field(label, control, hint) {
  if (control.id === '') control.id = uid('f');
  const hintElement = hint === undefined ? null : h('span', { class: 'hint', id: uid('hint') }, hint);
  if (hintElement !== null) control.setAttribute('aria-describedby', hintElement.id);
  return h('div', { class: 'field' }, h('label', { for: control.id }, label), control, hintElement);
}

/**
 * A `<select>` of options `[value, label]`.
 * @param {Attrs} attrs
 * @param {[string, string][]} options
 * @param {string} [selected]
 */
export function select(attrs, options, selected = '') {
  return h(
    'select',
    attrs,
    options.map(([value, label]) => h('option', { value, selected: value === selected }, label)),
  );
}
