import { formDialog, secretDialog } from '../../dialog.js';
import { field, formatTime, h, replace } from '../../dom.js';
import { t } from '../../i18n.js';
import { emptyRow, errorPanel, mono, pageHeader, table } from '../../ui.js';
import { endpointsOf } from './state.js';

/**
 * What the apps page shows: the form that creates an app, the table of apps with their endpoints
 * and actions, and the dialogs of those actions (a secret is shown once, in its own dialog).
 */

/** @typedef {import('./state.js').App} App */
/** @typedef {import('./state.js').Endpoint} Endpoint */
/** @typedef {{ rotate: (app: App) => void, setStatus: (app: App, action: 'disable' | 'enable') => void }} RowHandlers */

/** @param {(name: HTMLInputElement) => void} create called on the form's submit, with its name field */
export function appsView(create) {
  const notice = h('div', {});
  const body = h('tbody', {});
  const name = h('input', { name: 'name', required: true, maxlength: 128, autocomplete: 'off' });
  const form = h(
    'form',
    { class: 'inline-form', 'aria-label': t('apps.create') },
    field(t('apps.name'), name),
    h('button', { type: 'submit', class: 'button primary' }, t('apps.create')),
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    create(name);
  });
  const element = h(
    'div',
    { class: 'page' },
    pageHeader(t('apps.title')),
    h('section', { class: 'card' }, h('h2', {}, t('apps.create')), form),
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
  );
  return {
    element,
    /** @param {App[]} apps @param {Endpoint[]} endpoints @param {RowHandlers} handlers */
    shown(apps, endpoints, handlers) {
      replace(notice);
      if (apps.length === 0) return replace(body, emptyRow(5, t('apps.empty')));
      replace(
        body,
        apps.map((app) => appRow(app, endpointsOf(endpoints, app), handlers)),
      );
    },
    /** @param {unknown} error */
    failed: (error) => replace(notice, errorPanel(error)),
  };
}

/** @param {App} app @param {Endpoint[]} own @param {RowHandlers} handlers */
function appRow(app, own, { rotate, setStatus }) {
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
}

/**
 * The rotation's dialog: how long the old secrets keep working. True when it rotated.
 * @param {App} app
 * @param {(overlapHours: string | undefined) => Promise<void>} rotate
 */
export const askRotation = (app, rotate) =>
  formDialog({
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
    onSubmit: (values) => rotate(values['overlap_hours']),
  });

/** @param {App} app @param {import('./state.js').Rotated} result */
export const showRotated = (app, result) =>
  secretDialog({
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

/** @param {string} appName @param {import('./state.js').Created} created */
export const showCreated = (appName, created) =>
  secretDialog({
    title: t('apps.createdTitle', { name: appName }),
    warning: t('apps.secretOnce'),
    items: [
      [t('apps.appId'), created.app_id],
      [t('apps.secret'), created.app_secret],
    ],
  });

/** Disabling is confirmed: the app's tokens stop working at once. @param {App} app @param {() => Promise<void>} disable */
export const askDisable = (app, disable) =>
  formDialog({
    title: t('apps.disableTitle', { name: app.name }),
    description: t('apps.disableDescription'),
    submitLabel: t('apps.disable'),
    danger: true,
    onSubmit: disable,
  });
