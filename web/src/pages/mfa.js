import { api, ApiError } from '../api.js';
import { formDialog } from '../dialog.js';
import { field, h, replace } from '../dom.js';
import { t } from '../i18n.js';
import { errorText } from '../ui.js';

/**
 * Enrolment of the second factor (TOTP): the service draws the QR code of the secret (an SVG, shown
 * as an image; nothing leaves the service), the operator scans it or types the secret, confirms
 * with a current code, and is shown the recovery codes once. A started enrolment survives reloads
 * and detours: the service keeps the pending secret (encrypted) and answers it again until it is
 * confirmed or the operator asks for a new one. Once active, the page says so (no failed request). Where a second factor is required, a
 * sign-in without one lands here and can do nothing else until it is done.
 * @type {import('../context.js').Page}
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

  // What the service has: the same pending secret on every visit, until confirmed or replaced.
  api('GET', '/mfa')
    .then((/** @type {{ state: string, enrolment?: Enrolment }} */ factor) => {
      if (factor.state === 'active') {
        replace(body, h('p', { class: 'notice notice-info', role: 'status' }, t('mfa.active')));
      } else if (factor.enrolment !== undefined) {
        showSecret(factor.enrolment, false);
      } else {
        void startOver();
      }
    })
    .catch(failed);

  /** @param {unknown} failure */
  function failed(failure) {
    replace(body, h('p', { class: 'form-error', role: 'alert' }, errorText(failure)));
  }

  /** A new secret: the first visit, or on the operator's request (the previous one stops working). */
  async function startOver() {
    try {
      showSecret(await api('POST', '/mfa/enrol', {}), true);
    } catch (failure) {
      failed(failure);
    }
  }

  /** @typedef {{ secret: string, otpauth_uri: string, qr_svg: string }} Enrolment */

  /** @param {Enrolment} enrolment @param {boolean} fresh whether it was drawn just now */
  function showSecret(enrolment, fresh) {
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
        replace(
          error,
          failure instanceof ApiError && failure.code === 40172 ? t('mfa.codeWrong') : errorText(failure),
        );
        code.select();
      }
    });
    const again = h(
      'button',
      {
        type: 'button',
        class: 'button small',
        onclick: async () => {
          const confirmed = await formDialog({
            title: t('mfa.startOver'),
            description: t('mfa.startOverDescription'),
            submitLabel: t('mfa.startOver'),
            danger: true,
            onSubmit: startOver,
          });
          if (confirmed) /** @type {HTMLElement | null} */ (body.querySelector('input[name="otp"]'))?.focus();
        },
      },
      t('mfa.startOver'),
    );
    replace(
      body,
      h(
        'p',
        { class: 'notice notice-info', role: 'status', 'data-enrolment': fresh ? 'new' : 'pending' },
        t(fresh ? 'mfa.kept' : 'mfa.pending'),
      ),
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
      h('p', { class: 'small muted' }, t('mfa.lost'), ' ', again),
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
