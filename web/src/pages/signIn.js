import { api, ApiError } from '../api.js';
import { field, h, replace } from '../dom.js';
import { t } from '../i18n.js';
import { errorText } from '../ui.js';

/**
 * Sign-in with an operator account. The login asks for the session as a cookie (HttpOnly,
 * SameSite=Strict, expiring); the CSRF token it returns stays in memory for the actions.
 * @type {import('../context.js').Page}
 */
export function renderSignIn(main, ctx) {
  ctx.setTitle(t('signIn.title'));
  const params = new URLSearchParams(location.search);
  const next = params.get('next');
  // Only a path of the console: never a redirect elsewhere.
  const target = next !== null && /^\/console(\/[^/\\]|\/?$|\/?\?)/.test(next) ? next : '/console/';
  const notice = params.has('expired')
    ? h('p', { class: 'notice notice-warning', role: 'status' }, t('signIn.expired'))
    : params.has('signed_out')
      ? h('p', { class: 'notice notice-info', role: 'status' }, t('signIn.signedOut'))
      : null;

  const username = h('input', { name: 'username', autocomplete: 'username', required: true, maxlength: 64 });
  const password = h('input', {
    name: 'password',
    type: 'password',
    autocomplete: 'current-password',
    required: true,
    maxlength: 256,
  });
  // Asked for once the service says this operator has a second factor.
  const otp = h('input', { name: 'otp', inputmode: 'numeric', autocomplete: 'one-time-code', maxlength: 32 });
  const otpField = field(t('signIn.otp'), otp, t('signIn.otpHint'));
  otpField.hidden = true;
  const prompt = h('p', { class: 'signin-prompt', role: 'status' });
  const error = h('div', { class: 'form-error', role: 'alert' });
  const submit = h('button', { type: 'submit', class: 'button primary block' }, t('signIn.submit'));
  const form = h(
    'form',
    { class: 'signin-form', 'aria-labelledby': 'signin-title' },
    field(t('signIn.username'), username),
    field(t('signIn.password'), password),
    prompt,
    otpField,
    error,
    submit,
  );
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    replace(error);
    // "You have signed out" or "session ended" belonged to the last visit, not to this attempt.
    notice?.remove();
    if (params.has('expired') || params.has('signed_out'))
      history.replaceState(
        null,
        '',
        next === null ? '/console/login' : `/console/login?next=${encodeURIComponent(next)}`,
      );
    submit.disabled = true;
    try {
      const code = otp.value.trim();
      const result = await api('POST', '/login', {
        username: username.value,
        password: password.value,
        // Six digits are a code of the app; anything else is taken for a recovery code.
        ...(code === '' ? {} : /^[0-9]{6}$/.test(code) ? { otp: code } : { recovery_code: code }),
        cookie: true,
      });
      password.value = '';
      otp.value = '';
      ctx.signedIn(
        {
          username: result.operator.username,
          role: result.operator.role,
          csrf: result.csrf_token,
          idle: result.idle_timeout,
          enrol: result.mfa_enrolment_required,
        },
        target,
      );
    } catch (failure) {
      submit.disabled = false;
      // 40170: this operator has a second factor: ask for its code, keep the password.
      if (failure instanceof ApiError && failure.code === 40170) {
        otpField.hidden = false;
        replace(prompt, t('signIn.codeNeeded'));
        otp.focus();
        return;
      }
      replace(error, signInMessage(failure));
      // The keyboard goes where the next input is: the code, or the password.
      const code = failure instanceof ApiError ? failure.code : 0;
      if (code === 42301 || (otpField.hidden && code !== 40171)) password.select();
      else {
        otpField.hidden = false;
        otp.select();
      }
    }
  });

  replace(
    main,
    h(
      'div',
      { class: 'signin' },
      h(
        'section',
        { class: 'signin-card' },
        h(
          'div',
          { class: 'signin-top' },
          h('img', { src: '/console/assets/favicon.svg', alt: '', width: 40, height: 40 }),
          ctx.languageSwitch(),
        ),
        h('h1', { id: 'signin-title' }, t('signIn.title')),
        h('p', { class: 'muted' }, t('signIn.subtitle')),
        notice,
        form,
      ),
      h('p', { class: 'signin-footer muted' }, t('signIn.footer')),
    ),
  );
  username.focus();
}

/**
 * What a refused sign-in tells the operator to do, in their language, without the API's field
 * prefix (`otp: ...`): the catalogue's messages are written for developers.
 * @param {unknown} failure
 */
function signInMessage(failure) {
  if (!(failure instanceof ApiError)) return errorText(failure);
  /** @type {Record<number, string>} */
  const KEYS = {
    40112: 'signIn.wrongPassword',
    40171: 'signIn.codeRefused',
    42301: 'signIn.locked',
    42903: 'signIn.tooMany',
  };
  const key = KEYS[failure.code];
  if (key !== undefined) return t(key);
  return failure.message.replace(/^[a-z_]+: /, '');
}
