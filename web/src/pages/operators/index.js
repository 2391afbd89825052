import { api } from '../../api.js';
import { formDialog } from '../../dialog.js';
import { field, formatTime, h, replace, select } from '../../dom.js';
import { t } from '../../i18n.js';
import { emptyRow, errorPanel, errorText, pageHeader, table } from '../../ui.js';

/**
 * Operators and their roles: create one, change a role, set a password, disable or enable, see
 * each one's second factor and reset it (a lost authenticator: audited, ends their sessions).
 * Admins only; the API refuses an admin's change to their own account.
 */

/** @typedef {{ username: string, role: string, disabled: boolean, created_at: number, updated_at: number, second_factor: 'none' | 'pending' | 'active' }} Operator */

/** @type {import('../../context.js').Page} */
export function renderOperators(main, ctx) {
  ctx.setTitle(t('operators.title'));
  const notice = h('div', {});
  const body = h('tbody', {});
  let stopped = false;
  /** @type {[string, string][]} */
  const roleOptions = ctx.meta.roles.map((role) => [role, t(`role.${role}`)]);

  /** @param {string} path @param {unknown} payload @param {string} done */
  const change = async (path, payload, done) => {
    await api('POST', path, payload);
    ctx.toast(done, 'success');
    await load();
  };

  async function load() {
    try {
      /** @type {Operator[]} */
      const operators = await api('GET', '/operators');
      if (stopped) return;
      replace(notice);
      if (operators.length === 0) return replace(body, emptyRow(6, t('operators.empty')));
      replace(
        body,
        operators.map((op) => {
          const self = op.username === ctx.session.username;
          const path = `/operators/${encodeURIComponent(op.username)}`;
          const roleSelect = select(
            { 'aria-label': t('operators.roleOf', { name: op.username }), disabled: self },
            roleOptions,
            op.role,
          );
          roleSelect.addEventListener('change', () =>
            change(
              `${path}/role`,
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
            h(
              'td',
              {},
              h(
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
                            `${path}/password`,
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
                            onSubmit: () =>
                              change(
                                `${path}/mfa/reset`,
                                {},
                                t('operators.resetDone', { name: op.username }),
                              ),
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
                            `${path}/${op.disabled ? 'enable' : 'disable'}`,
                            {},
                            t(op.disabled ? 'operators.enabled' : 'operators.disabledDone', {
                              name: op.username,
                            }),
                          ).catch((error) => ctx.toast(errorText(error), 'error')),
                      },
                      t(op.disabled ? 'operators.enable' : 'operators.disable'),
                    ),
              ),
            ),
          );
        }),
      );
    } catch (error) {
      if (!stopped) replace(notice, errorPanel(error));
    }
  }

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
      await change(
        '/operators',
        { username: username.value, role: role.value, password: password.value },
        t('operators.created', { name: username.value }),
      );
      username.value = '';
      password.value = '';
    } catch (failure) {
      replace(error, errorText(failure));
    }
  });

  replace(
    main,
    h(
      'div',
      { class: 'page' },
      pageHeader(t('operators.title')),
      h(
        'section',
        { class: 'card' },
        h('h2', {}, t('operators.create')),
        form,
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
    ),
  );
  void load();
  return () => {
    stopped = true;
  };
}
