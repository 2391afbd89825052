import { formDialog } from '../../dialog.js';
import { field, formatTime, h, replace, select } from '../../dom.js';
import { t } from '../../i18n.js';
import { emptyRow, errorPanel, errorText, pageHeader, table } from '../../ui.js';

/**
 * What the operators page shows: the form that creates an operator, and the table of operators
 * with each one's role, state, second factor and actions (their dialogs included). The API
 * refuses an admin's change to their own account, so their own row offers none.
 */

/** @typedef {import('../../context.js').PageContext} PageContext */
/** @typedef {import('./state.js').Operator} Operator */
/**
 * A change to an operator, then its toast and the table again; it rejects on an error.
 * @typedef {(op: Operator, change: string, payload: unknown, done: string) => Promise<void>} Change
 */

/**
 * @param {PageContext} ctx
 * @param {(operator: import('./state.js').NewOperator, done: string) => Promise<void>} create
 */
export function operatorsView(ctx, create) {
  const notice = h('div', {});
  const body = h('tbody', {});
  /** @type {[string, string][]} */
  const roleOptions = ctx.meta.roles.map((role) => [role, t(`role.${role}`)]);
  const element = h(
    'div',
    { class: 'page' },
    pageHeader(t('operators.title')),
    h(
      'section',
      { class: 'card' },
      h('h2', {}, t('operators.create')),
      createForm(roleOptions, create),
      h('p', { class: 'muted small' }, t('operators.roles')),
    ),
    notice,
    h(
      'section',
      { class: 'card flush' },
      table(
        t('operators.title'),
        [
          t('operators.username'),
          t('operators.role'),
          t('operators.state'),
          t('operators.factor'),
          t('queue.created'),
          h('span', { class: 'sr-only' }, t('apps.actions')),
        ],
        body,
      ),
    ),
  );
  return {
    element,
    /** @param {Operator[]} operators @param {Change} change */
    shown(operators, change) {
      replace(notice);
      if (operators.length === 0) return replace(body, emptyRow(6, t('operators.empty')));
      replace(
        body,
        operators.map((op) => operatorRow(ctx, op, roleOptions, change)),
      );
    },
    /** @param {unknown} error */
    failed: (error) => replace(notice, errorPanel(error)),
  };
}

/**
 * @param {[string, string][]} roleOptions
 * @param {(operator: import('./state.js').NewOperator, done: string) => Promise<void>} create
 */
function createForm(roleOptions, create) {
  const username = h('input', {
    name: 'username',
    required: true,
    maxlength: 64,
    autocomplete: 'off',
    pattern: '[a-z0-9][a-z0-9._\\-]{1,63}',
  });
  const role = select({ name: 'role' }, roleOptions, 'viewer');
  const password = h('input', {
    name: 'password',
    type: 'password',
    required: true,
    autocomplete: 'new-password',
    minlength: 12,
  });
  const error = h('div', { class: 'form-error', role: 'alert' });
  const form = h(
    'form',
    { class: 'inline-form', 'aria-label': t('operators.create') },
    field(t('operators.username'), username, t('operators.usernameHint')),
    field(t('operators.role'), role),
    field(t('operators.password'), password, t('operators.passwordHint')),
    h('button', { type: 'submit', class: 'button primary' }, t('operators.create')),
    error,
  );
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    replace(error);
    try {
      await create(
        { username: username.value, role: role.value, password: password.value },
        t('operators.created', { name: username.value }),
      );
      username.value = '';
      password.value = '';
    } catch (failure) {
      replace(error, errorText(failure));
    }
  });
  return form;
}

/**
 * @param {PageContext} ctx
 * @param {Operator} op
 * @param {[string, string][]} roleOptions
 * @param {Change} change
 */
function operatorRow(ctx, op, roleOptions, change) {
  const self = op.username === ctx.session.username;
  const roleSelect = select(
    { 'aria-label': t('operators.roleOf', { name: op.username }), disabled: self },
    roleOptions,
    op.role,
  );
  roleSelect.addEventListener('change', () =>
    change(
      op,
      'role',
      { role: roleSelect.value },
      t('operators.roleChanged', { name: op.username, role: t(`role.${roleSelect.value}`) }),
    ).catch((error) => {
      roleSelect.value = op.role;
      ctx.toast(errorText(error), 'error');
    }),
  );
  return h(
    'tr',
    { 'data-operator': op.username },
    h(
      'td',
      {},
      h('span', { class: 'strong' }, op.username),
      self ? h('span', { class: 'muted small' }, ` (${t('operators.you')})`) : null,
    ),
    h('td', {}, roleSelect),
    h(
      'td',
      {},
      h(
        'span',
        { class: `badge app-${op.disabled ? 'disabled' : 'active'}` },
        t(op.disabled ? 'operators.disabled' : 'operators.active'),
      ),
    ),
    h(
      'td',
      {},
      h(
        'span',
        { class: `badge factor-${op.second_factor}`, 'data-factor': op.second_factor },
        t(`operators.factor.${op.second_factor}`),
      ),
    ),
    h('td', { class: 'nowrap' }, formatTime(op.created_at)),
    h('td', {}, rowActions(ctx, op, self, change)),
  );
}

/**
 * Set a password; reset the second factor and disable or enable, but on one's own account.
 * @param {PageContext} ctx
 * @param {Operator} op
 * @param {boolean} self
 * @param {Change} change
 */
function rowActions(ctx, op, self, change) {
  return h(
    'div',
    { class: 'row-actions' },
    h(
      'button',
      {
        type: 'button',
        class: 'button small',
        'aria-label': t('operators.passwordNamed', { name: op.username }),
        onclick: () =>
          formDialog({
            title: t('operators.passwordTitle', { name: op.username }),
            description: t('operators.passwordDescription'),
            fields: [
              {
                name: 'password',
                label: t('operators.newPassword'),
                type: 'password',
                required: true,
                autocomplete: 'new-password',
                hint: t('operators.passwordHint'),
              },
            ],
            submitLabel: t('operators.setPassword'),
            onSubmit: (values) =>
              change(
                op,
                'password',
                { password: values['password'] },
                t('operators.passwordSet', { name: op.username }),
              ),
          }),
      },
      t('operators.setPassword'),
    ),
    self || op.second_factor === 'none'
      ? null
      : h(
          'button',
          {
            type: 'button',
            class: 'button small',
            'data-focus-key': `reset-${op.username}`,
            'aria-label': t('operators.resetNamed', { name: op.username }),
            onclick: () =>
              formDialog({
                title: t('operators.resetTitle', { name: op.username }),
                description: t('operators.resetDescription', { name: op.username }),
                submitLabel: t('operators.reset'),
                danger: true,
                onSubmit: () => change(op, 'mfa/reset', {}, t('operators.resetDone', { name: op.username })),
              }),
          },
          t('operators.reset'),
        ),
    self
      ? null
      : h(
          'button',
          {
            type: 'button',
            class: `button small ${op.disabled ? '' : 'danger-outline'}`,
            'aria-label': t(op.disabled ? 'operators.enableNamed' : 'operators.disableNamed', {
              name: op.username,
            }),
            onclick: () =>
              change(
                op,
                op.disabled ? 'enable' : 'disable',
                {},
                t(op.disabled ? 'operators.enabled' : 'operators.disabledDone', { name: op.username }),
              ).catch((error) => ctx.toast(errorText(error), 'error')),
          },
          t(op.disabled ? 'operators.enable' : 'operators.disable'),
        ),
  );
}
