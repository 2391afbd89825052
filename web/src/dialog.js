import { ApiError } from './api.js';
import { field, h, replace, select, uid } from './dom.js';
import { t } from './i18n.js';

/**
 * Modal dialogs on the native <dialog> element: focus moves in and is kept there, Escape cancels,
 * and focus returns where it was. A form dialog keeps itself open on an error and shows the API's
 * message, next to the field it names when it names one.
 */

/**
 * @typedef {{
 *   name: string,
 *   label: string,
 *   type?: 'text' | 'password' | 'textarea' | 'select' | 'multiselect',
 *   required?: boolean,
 *   options?: [string, string][],
 *   value?: string,
 *   hint?: string,
 *   maxlength?: number,
 *   autocomplete?: string,
 * }} DialogField
 */

/**
 * Where the keyboard goes when a dialog closes (WCAG 2.4.3): the element that opened it; when the
 * page has redrawn that one, its successor (the same `data-focus-key`); else the page's heading,
 * never the body. A caller may move it on from there once the dialog's promise resolves.
 * @param {Element | null} previous
 */
function returnFocus(previous) {
  if (previous instanceof HTMLElement && previous.isConnected && previous !== document.body) {
    previous.focus();
    return;
  }
  const key = previous instanceof HTMLElement ? previous.dataset['focusKey'] : undefined;
  const successor =
    key === undefined ? null : document.querySelector(`[data-focus-key="${CSS.escape(key)}"]`);
  const target = successor ?? document.querySelector('main h1') ?? document.querySelector('main');
  if (target instanceof HTMLElement) {
    if (target.tabIndex < 0 && !target.hasAttribute('tabindex')) target.setAttribute('tabindex', '-1');
    target.focus();
  }
}

/**
 * @param {HTMLDialogElement} dialog
 * @param {(value: boolean) => void} resolve
 */
export function openModal(dialog, resolve) {
  const previous = document.activeElement;
  let result = false;
  dialog.addEventListener('close', () => {
    dialog.remove();
    returnFocus(previous);
    resolve(result);
  });
  document.body.append(dialog);
  dialog.showModal();
  return {
    /** @param {boolean} value */
    close: (value) => {
      result = value;
      dialog.close();
    },
  };
}

/** @param {DialogField} spec */
function control(spec) {
  const common = {
    name: spec.name,
    required: spec.required ?? false,
    autocomplete: spec.autocomplete ?? 'off',
  };
  if (spec.type === 'select') return select(common, spec.options ?? [], spec.value);
  if (spec.type === 'multiselect') {
    const options = spec.options ?? [];
    return select({ ...common, multiple: true, size: Math.min(options.length, 8) }, options, spec.value);
  }
  if (spec.type === 'textarea') {
    return h('textarea', { ...common, rows: 3, maxlength: spec.maxlength ?? null }, spec.value ?? '');
  }
  return h('input', {
    ...common,
    type: spec.type ?? 'text',
    value: spec.value ?? '',
    maxlength: spec.maxlength ?? null,
  });
}

/**
 * A dialog with a form; `onSubmit` runs the action and throws to keep the dialog open.
 * @param {{
 *   title: string,
 *   description?: string | Node,
 *   fields?: DialogField[],
 *   submitLabel: string,
 *   danger?: boolean,
 *   onSubmit: (values: Record<string, string>) => Promise<void>,
 * }} spec
 * @returns {Promise<boolean>} whether the action ran
 */
export function formDialog(spec) {
  return new Promise((resolve) => {
    const titleId = uid('dialog-title');
    const error = h('div', { class: 'form-error', role: 'alert' });
    const controls = (spec.fields ?? []).map((f) => ({ spec: f, element: control(f) }));
    const submit = h(
      'button',
      { type: 'submit', class: spec.danger === true ? 'button danger' : 'button primary' },
      spec.submitLabel,
    );
    const cancel = h(
      'button',
      { type: 'button', class: 'button', onclick: () => handle.close(false) },
      t('action.cancel'),
    );
    const form = h(
      'form',
      { class: 'dialog-body' },
      h('h2', { id: titleId }, spec.title),
      spec.description === undefined ? null : h('div', { class: 'dialog-description' }, spec.description),
      controls.map(({ spec: f, element }) => field(f.label, element, f.hint)),
      error,
      h('div', { class: 'dialog-actions' }, cancel, submit),
    );
    const dialog = h('dialog', { class: 'dialog', 'aria-labelledby': titleId }, form);
    const handle = openModal(dialog, resolve);
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      /** @type {Record<string, string>} */
      const values = {};
      for (const { spec: f, element } of controls) {
        values[f.name] =
          element instanceof HTMLSelectElement && element.multiple
            ? [...element.selectedOptions].map((option) => option.value).join(',')
            : element.value;
        element.removeAttribute('aria-invalid');
      }
      replace(error);
      submit.disabled = true;
      try {
        await spec.onSubmit(values);
        handle.close(true);
      } catch (failure) {
        submit.disabled = false;
        const message = failure instanceof Error ? failure.message : String(failure);
        replace(error, message);
        if (failure instanceof ApiError) {
          for (const problem of failure.fieldErrors) {
            const named = controls.find((c) => c.spec.name === problem.field);
            named?.element.setAttribute('aria-invalid', 'true');
          }
        }
      }
    });
    // A confirmation without fields starts on its safe button: Enter twice must not do the deed.
    (controls[0]?.element ?? cancel).focus();
  });
}

/**
 * Shows a value once (a new secret), with a button that copies it.
 * @param {{ title: string, warning: string, items: [string, string][] }} spec
 */
export function secretDialog(spec) {
  return new Promise((resolve) => {
    const titleId = uid('dialog-title');
    const status = h('p', { class: 'hint', role: 'status' });
    const rows = spec.items.map(([label, value]) => {
      const input = h('input', { type: 'text', readonly: true, value, class: 'mono secret-value' });
      const copy = h(
        'button',
        {
          type: 'button',
          class: 'button',
          onclick: async () => {
            input.select();
            try {
              await navigator.clipboard.writeText(value);
              replace(status, t('secret.copied', { label }));
            } catch {
              replace(status, t('secret.copyManually'));
            }
          },
        },
        t('action.copy'),
      );
      return h('div', { class: 'secret-row' }, field(label, input), copy);
    });
    const done = h(
      'button',
      { type: 'button', class: 'button primary', onclick: () => handle.close(true) },
      t('secret.done'),
    );
    const dialog = h(
      'dialog',
      { class: 'dialog', 'aria-labelledby': titleId },
      h(
        'div',
        { class: 'dialog-body' },
        h('h2', { id: titleId }, spec.title),
        h('p', { class: 'notice notice-warning' }, spec.warning),
        rows,
        status,
        h('div', { class: 'dialog-actions' }, done),
      ),
    );
    const handle = openModal(dialog, resolve);
    /** @type {HTMLInputElement | undefined} */ (rows[0]?.querySelector('input'))?.focus();
  });
}
