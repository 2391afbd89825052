import { api, ApiError } from '../api.js';
import { field, h, replace } from '../dom.js';
import { t } from '../i18n.js';
import { errorText } from '../ui.js';

/**
 * Enrolment of the second factor (TOTP): the service draws the QR code of the secret (an SVG, shown
 * as an image; nothing leaves the service), the operator scans it or types the secret, confirms
 * with a current code, and is shown the recovery codes once. Where a second factor is required, a
 * sign-in without one lands here and can do nothing else until it is done.
 * @type {import('../main.js').Page}
 */
export function renderMfa(main, ctx) {
  ctx.setTitle(t('mfa.title'));
  const body = h('div', { class: 'mfa-body' }, h('p', {}, t('common.loading')));
  replace(
    main,
    h(
      'div',
      { class: 'page mfa-page' },
      h('h1', {}, t('mfa.title')),
      h('p', { class: 'muted' }, t('mfa.intro')),
      body,
    ),
  );

  api('POST', '/mfa/enrol', {})
    .then((enrolment) => showSecret(enrolment))
    .catch((failure) => {
      if (failure instanceof ApiError && failure.status === 409) {
        replace(body, h('p', { class: 'notice notice-info', role: 'status' }, t('mfa.active')));
      } else {
        replace(body, h('p', { class: 'form-error', role: 'alert' }, errorText(failure)));
      }
    });

  /** @param {{ secret: string, otpauth_uri: string, qr_svg: string }} enrolment */
  function showSecret(enrolment) {
    const code = h('input', {
      name: 'otp',
      inputmode: 'numeric',
      autocomplete: 'one-time-code',
      pattern: '[0-9]{6}',
      maxlength: 6,
      required: true,
    });
    const error = h('div', { class: 'form-error', role: 'alert' });
    const submit = h('button', { type: 'submit', class: 'button primary' }, t('mfa.confirm'));
    const form = h('form', { class: 'mfa-form' }, field(t('mfa.code'), code), error, submit);
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      replace(error);
      submit.disabled = true;
      try {
        const result = await api('POST', '/mfa/confirm', { otp: code.value });
        showRecoveryCodes(result.recovery_codes);
      } catch (failure) {
        submit.disabled = false;
        replace(error, errorText(failure));
        code.select();
      }
    });
    replace(
      body,
      h(
        'div',
        { class: 'mfa-secret' },
        h('img', {
          class: 'mfa-qr',
          src: `data:image/svg+xml;base64,${btoa(enrolment.qr_svg)}`,
          alt: t('mfa.qrAlt'),
          width: 200,
          height: 200,
        }),
        h(
          'div',
          {},
          h('p', {}, t('mfa.scan')),
          h('p', {}, t('mfa.manual'), ' ', h('code', { class: 'mfa-secret-text' }, enrolment.secret)),
          h('p', { class: 'muted' }, h('code', { class: 'mfa-uri' }, enrolment.otpauth_uri)),
        ),
      ),
      form,
    );
    code.focus();
  }

  /** @param {string[]} codes */
  function showRecoveryCodes(codes) {
    const done = h('button', { type: 'button', class: 'button primary' }, t('mfa.continue'));
    done.addEventListener('click', () => ctx.enrolled());
    replace(
      body,
      h('p', { class: 'notice notice-info', role: 'status' }, t('mfa.done')),
      h('p', {}, t('mfa.recovery')),
      h(
        'ul',
        { class: 'recovery-codes' },
        codes.map((c) => h('li', {}, h('code', {}, c))),
      ),
      done,
    );
    done.focus();
  }
}
