import { api } from '../../api.js';
import { formDialog, secretDialog } from '../../dialog.js';
import { field, formatTime, h, replace } from '../../dom.js';
import { t } from '../../i18n.js';
import { emptyRow, errorPanel, errorText, mono, pageHeader, table } from '../../ui.js';

/**
 * Apps (the partners) with their webhook endpoints: create one (its secret is shown once), rotate
 * its secret, disable or enable it. Admins only.
 */

/**
 * @typedef {{ app_id: string, name: string, status: string, created_at: number }} App
 * @typedef {{ id: string, app_id: string, url: string, status: string, events: string[] | null }} Endpoint
 */

/** @type {import('../../context.js').Page} */
export function renderApps(main, ctx) {
  ctx.setTitle(t('apps.title'));
  const notice = h('div', {});
  const body = h('tbody', {});
  let stopped = false;

  async function load() {
    try {
      /** @type {[App[], Endpoint[]]} */
      const [apps, endpoints] = await Promise.all([api('GET', '/apps'), api('GET', '/webhooks')]);
      if (stopped) return;
      replace(notice);
      if (apps.length === 0) return replace(body, emptyRow(5, t('apps.empty')));
      replace(
        body,
        apps.map((app) => {
          const own = endpoints.filter((e) => e.app_id === app.app_id);
          return h(
            'tr',
            { 'data-app': app.app_id },
            h('td', {}, h('div', { class: 'strong' }, app.name), mono(app.app_id)),
            h('td', {}, h('span', { class: `badge app-${app.status}` }, t(`apps.status.${app.status}`))),
            h(
              'td',
              {},
              own.length === 0
                ? h('span', { class: 'muted small' }, t('apps.noEndpoints'))
                : h(
                    'ul',
                    { class: 'endpoint-list' },
                    own.map((e) =>
                      h(
                        'li',
                        {},
                        h(
                          'span',
                          { class: `badge app-${e.status === 'active' ? 'active' : 'disabled'}` },
                          t(`apps.status.${e.status === 'active' ? 'active' : 'disabled'}`),
                        ),
                        ' ',
                        h('span', { class: 'mono small endpoint-url' }, e.url),
                        h(
                          'div',
                          { class: 'muted small' },
                          e.events === null ? t('apps.allEvents') : e.events.join(', '),
                        ),
                      ),
                    ),
                  ),
            ),
            h('td', { class: 'nowrap' }, formatTime(app.created_at)),
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
                    'aria-label': t('apps.rotateNamed', { name: app.name }),
                    onclick: () => rotate(app),
                  },
                  t('apps.rotate'),
                ),
                app.status === 'active'
                  ? h(
                      'button',
                      {
                        type: 'button',
                        class: 'button small danger-outline',
                        'aria-label': t('apps.disableNamed', { name: app.name }),
                        onclick: () => setStatus(app, 'disable'),
                      },
                      t('apps.disable'),
                    )
                  : h(
                      'button',
                      {
                        type: 'button',
                        class: 'button small',
                        'aria-label': t('apps.enableNamed', { name: app.name }),
                        onclick: () => setStatus(app, 'enable'),
                      },
                      t('apps.enable'),
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

  /** @param {App} app */
  async function rotate(app) {
    /** @type {{ app_secret: string, previous_secrets_expire_at: number } | null} */
    let rotated = null;
    const done = await formDialog({
      title: t('apps.rotateTitle', { name: app.name }),
      description: t('apps.rotateDescription'),
      fields: [
        {
          name: 'overlap_hours',
          label: t('apps.overlap'),
          type: 'select',
          value: '24',
          options: [
            ['0', t('apps.overlapNone')],
            ['1', t('apps.overlapHours', { n: 1 })],
            ['24', t('apps.overlapHours', { n: 24 })],
            ['168', t('apps.overlapHours', { n: 168 })],
          ],
        },
      ],
      submitLabel: t('apps.rotate'),
      onSubmit: async (values) => {
        rotated = await api('POST', `/apps/${encodeURIComponent(app.app_id)}/rotate-secret`, {
          overlap_seconds: Number(values['overlap_hours']) * 3600,
        });
      },
    });
    if (!done || rotated === null) return;
    const result = /** @type {{ app_secret: string, previous_secrets_expire_at: number }} */ (rotated);
    await secretDialog({
      title: t('apps.newSecretTitle', { name: app.name }),
      warning:
        t('apps.secretOnce') +
        ' ' +
        t('apps.previousUntil', { time: formatTime(result.previous_secrets_expire_at) }),
      items: [
        [t('apps.appId'), app.app_id],
        [t('apps.secret'), result.app_secret],
      ],
    });
  }

  /** @param {App} app @param {'disable' | 'enable'} action */
  async function setStatus(app, action) {
    const run = async () => {
      await api('POST', `/apps/${encodeURIComponent(app.app_id)}/${action}`);
      ctx.toast(t(`apps.${action}d`, { name: app.name }), 'success');
      await load();
    };
    if (action === 'enable') return run().catch((error) => ctx.toast(errorText(error), 'error'));
    await formDialog({
      title: t('apps.disableTitle', { name: app.name }),
      description: t('apps.disableDescription'),
      submitLabel: t('apps.disable'),
      danger: true,
      onSubmit: run,
    });
  }

  const name = h('input', { name: 'name', required: true, maxlength: 128, autocomplete: 'off' });
  const create = h(
    'form',
    { class: 'inline-form', 'aria-label': t('apps.create') },
    field(t('apps.name'), name),
    h('button', { type: 'submit', class: 'button primary' }, t('apps.create')),
  );
  create.addEventListener('submit', async (event) => {
    event.preventDefault();
    try {
      const created = await api('POST', '/apps', { name: name.value });
      const appName = name.value;
      name.value = '';
      await load();
      await secretDialog({
        title: t('apps.createdTitle', { name: appName }),
        warning: t('apps.secretOnce'),
        items: [
          [t('apps.appId'), created.app_id],
          [t('apps.secret'), created.app_secret],
        ],
      });
    } catch (error) {
      ctx.toast(errorText(error), 'error');
    }
  });

  replace(
    main,
    h(
      'div',
      { class: 'page' },
      pageHeader(t('apps.title')),
      h('section', { class: 'card' }, h('h2', {}, t('apps.create')), create),
      notice,
      h(
        'section',
        { class: 'card flush' },
        table(
          t('apps.title'),
          [
            t('apps.app'),
            t('apps.statusColumn'),
            t('apps.endpoints'),
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
