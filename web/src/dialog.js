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
 *   type?: 'text' | 'password' | 'textarea' | 'select' | 'multiselect' | 'checkboxes',
 *   required?: boolean,
 *   options?: [string, string][],
 *   groups?: CheckboxGroup[],
 *   value?: string,
 *   hint?: string,
 *   maxlength?: number,
 *   autocomplete?: string,
 * }} DialogField
 */
/**
 * Boxes to tick under one heading: a `checkboxes` field's value is the ticked boxes' values
 * joined by commas (a box may stand for several names, `mob_no,mob_no_of`).
 * @typedef {{ label: string, options: [string, string][] }} CheckboxGroup
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

/**
 * A `checkboxes` field: a fieldset named by the field's label, a fieldset per group, a box per
 * option; each box is labelled by its own text (WCAG 1.3.1, 4.1.2).
 * @param {DialogField} spec
 */
function checkboxes(spec) {
  const hint = spec.hint === undefined ? null : h('p', { class: 'hint', id: uid('hint') }, spec.hint);
  return h(
    'fieldset',
    {
      class: 'check-field',
      'data-name': spec.name,
      'aria-describedby': hint === null ? null : hint.id,
    },
    h('legend', {}, spec.label),
    hint,
    (spec.groups ?? []).map((group) =>
      h(
        'fieldset',
        { class: 'check-group' },
        h('legend', {}, group.label),
        h(
          'div',
          { class: 'check-options' },
          group.options.map(([value, label]) =>
            h('label', { class: 'check' }, h('input', { type: 'checkbox', value }), h('span', {}, label)),
          ),
        ),
      ),
    ),
  );
}

/** @param {HTMLElement} element @returns {HTMLInputElement[]} */
const boxesOf = (element) => [...element.querySelectorAll('input')].filter((box) => box.type === 'checkbox');

/** A field's value as its body takes it. @param {HTMLElement} element */
function valueOf(element) {
  if (element instanceof HTMLFieldSetElement) {
    return boxesOf(element)
      .filter((box) => box.checked)
      .map((box) => box.value)
      .join(',');
  }
  if (element instanceof HTMLSelectElement && element.multiple)
    return [...element.selectedOptions].map((option) => option.value).join(',');
  return /** @type {HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement} */ (element).value;
}

/** @param {DialogField} spec */
function control(spec) {
  if (spec.type === 'checkboxes') return checkboxes(spec);
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
      controls.map(({ spec: f, element }) =>
        element instanceof HTMLFieldSetElement ? element : field(f.label, element, f.hint),
      ),
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
        values[f.name] = valueOf(element);
        element.removeAttribute('aria-invalid');
      }
      replace(error);
      // Boxes cannot say "at least one" to the browser's own check: the dialog says it.
      const unticked = controls.find(
        ({ spec: f }) => f.type === 'checkboxes' && f.required === true && values[f.name] === '',
      );
      if (unticked !== undefined) {
        unticked.element.setAttribute('aria-invalid', 'true');
        replace(error, t('form.tickOne', { field: unticked.spec.label }));
        boxesOf(unticked.element)[0]?.focus();
        return;
      }
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
    const first = controls[0]?.element;
    ((first === undefined ? undefined : (boxesOf(first)[0] ?? first)) ?? cancel).focus();
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
