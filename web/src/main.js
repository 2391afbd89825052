import { api, ApiError, onActivity, onSessionLost, setCsrfToken } from './api.js';
import { h, replace } from './dom.js';
import { applyDocumentLanguage, language, setLanguage, t } from './i18n.js';
import { renderApplication } from './pages/application/index.js';
import { renderApps } from './pages/apps/index.js';
import { activity, stopWatchingIdle, watchIdle } from './idle.js';
import { renderMfa } from './pages/mfa.js';
import { renderDashboard } from './pages/dashboard.js';
import { renderAudit } from './pages/audit.js';
import { renderOperators } from './pages/operators/index.js';
import { renderQueue } from './pages/queue/index.js';
import { renderScreeningLists } from './pages/screeningLists.js';
import { renderSignIn } from './pages/signIn.js';
import { renderSubjectRequests } from './pages/subjectRequests.js';
import { toast } from './toast.js';
import { screeningBanner } from './screeningBanner.js';

/**
 * The console's shell: session, routing (History API under /console), the header with navigation,
 * language and sign-out, and the page in <main>. Each page renders into <main> and may return a
 * cleanup function, run when the operator leaves it (timers stop, revealed values are dropped).
 */

/** @typedef {import('./context.js').Session} Session */
/** @typedef {import('./context.js').Meta} Meta */
/** @typedef {import('./context.js').PageContext} PageContext */
/** @typedef {import('./context.js').Page} Page */

/** @type {[RegExp, Page, string | null][]} path, page, role needed (null: signed out) */
const ROUTES = [
  [/^\/console\/?$/, renderQueue, 'viewer'],
  [/^\/console\/applications\/([0-9A-Za-z]{1,32})$/, renderApplication, 'viewer'],
  [/^\/console\/apps$/, renderApps, 'admin'],
  [/^\/console\/operators$/, renderOperators, 'admin'],
  [/^\/console\/audit$/, renderAudit, 'viewer'],
  [/^\/console\/login$/, renderSignIn, null],
  [/^\/console\/mfa$/, renderMfa, 'viewer'],
  [/^\/console\/dashboard$/, renderDashboard, 'viewer'],
  [/^\/console\/screening$/, renderScreeningLists, 'viewer'],
  [/^\/console\/subject-requests$/, renderSubjectRequests, 'viewer'],
];

const root = /** @type {HTMLElement} */ (document.getElementById('app'));
/** @type {Meta} */
let meta;
/** @type {Session | null} */
let session = null;
/** @type {(() => void) | void} */
let cleanup;

/** @param {string} role */
function can(role) {
  if (session === null) return false;
  return meta.roles.indexOf(session.role) >= meta.roles.indexOf(role);
}

/**
 * @param {string} url a path under /console, with its query
 * @param {{ replace?: boolean }} [options]
 */
function navigate(url, options = {}) {
  if (options.replace === true) history.replaceState(null, '', url);
  else history.pushState(null, '', url);
  window.scrollTo(0, 0);
  render();
}

/** @param {Session | null} next */
function setSession(next) {
  session = next;
  setCsrfToken(next?.csrf ?? null);
  if (next === null) stopWatchingIdle();
  else watchIdle(next.idle, { ended: sessionEnded, signOut: () => void signOut() });
}

function render() {
  if (typeof cleanup === 'function') cleanup();
  cleanup = undefined;
  applyDocumentLanguage();
  const skip = document.querySelector('.skip-link');
  if (skip !== null) skip.textContent = t('nav.skip');
  const path = location.pathname;
  const match = ROUTES.map(([pattern, page, role]) => ({ found: pattern.exec(path), page, role })).find(
    (route) => route.found !== null,
  );
  if (match === undefined) return navigate('/console/', { replace: true });
  if (match.role !== null && session === null) {
    const next = encodeURIComponent(path + location.search);
    return navigate(`/console/login?next=${next}`, { replace: true });
  }
  if (match.role === null && session !== null) return navigate('/console/', { replace: true });
  // A second factor is required and missing: enrolment first, nothing else.
  if (session !== null && session.enrol && path !== '/console/mfa')
    return navigate('/console/mfa', { replace: true });
  const main = h('main', { id: 'main', tabindex: '-1', class: 'main' });
  root.className = session === null ? 'app signed-out' : 'app';
  replace(root, session === null ? null : header(path), session === null ? null : screeningBanner(), main);
  if (match.role !== null && !can(match.role)) {
    document.title = `${t('error.forbiddenTitle')} · ${t('app.title')}`;
    replace(
      main,
      h('div', { class: 'page' }, h('h1', {}, t('error.forbiddenTitle')), h('p', {}, t('error.forbidden'))),
    );
    return;
  }
  /** @type {PageContext} */
  const ctx = {
    session: /** @type {Session} */ (session),
    meta,
    can,
    navigate,
    toast,
    setTitle: (title) => {
      document.title = `${title} · ${t('app.title')}`;
    },
    languageSwitch,
    signedIn: (next, target) => {
      setSession(next);
      navigate(target, { replace: true });
    },
    enrolled: () => {
      if (session !== null) session = { ...session, enrol: false };
      navigate('/console/', { replace: true });
    },
  };
  cleanup = match.page(main, ctx, (match.found ?? []).slice(1));
  // Keyboard and screen reader users land on the new page, not at the end of the old one.
  const heading = main.querySelector('h1');
  if (heading !== null && session !== null) {
    heading.setAttribute('tabindex', '-1');
    heading.focus({ preventScroll: true });
  }
}

/** @param {string} path */
function header(path) {
  const user = /** @type {Session} */ (session);
  /** @param {string} href @param {string} label @param {boolean} current */
  const link = (href, label, current) =>
    h('a', { href, class: 'nav-link', 'aria-current': current ? 'page' : null }, label);
  const onApplications =
    path === '/console' || path === '/console/' || path.startsWith('/console/applications');
  return h(
    'header',
    { class: 'topbar' },
    h(
      'a',
      { class: 'brand', href: '/console/' },
      h('img', { src: '/console/assets/favicon.svg', alt: '', width: 24, height: 24 }),
      h('span', {}, t('app.title')),
    ),
    h(
      'nav',
      { class: 'nav', 'aria-label': t('nav.label') },
      link('/console/', t('nav.queue'), onApplications),
      can('admin') ? link('/console/apps', t('nav.apps'), path === '/console/apps') : null,
      can('admin') ? link('/console/operators', t('nav.operators'), path === '/console/operators') : null,
      link('/console/dashboard', t('nav.dashboard'), path === '/console/dashboard'),
      link('/console/screening', t('nav.screening'), path === '/console/screening'),
      link('/console/subject-requests', t('nav.subjects'), path === '/console/subject-requests'),
      link('/console/audit', t('nav.audit'), path === '/console/audit'),
      link('/console/mfa', t('nav.mfa'), path === '/console/mfa'),
    ),
    h(
      'div',
      { class: 'topbar-right' },
      languageSwitch(),
      h(
        'span',
        { class: 'user' },
        h('span', { class: 'user-name' }, user.username),
        h('span', { class: `role role-${user.role}` }, t(`role.${user.role}`)),
      ),
      h('button', { type: 'button', class: 'button ghost on-dark', onclick: signOut }, t('nav.signOut')),
    ),
  );
}

function languageSwitch() {
  /** @param {'en' | 'zh'} lang @param {string} label */
  const option = (lang, label) =>
    h(
      'button',
      {
        type: 'button',
        class: 'lang-option',
        lang: lang === 'zh' ? 'zh-CN' : 'en',
        'aria-pressed': language() === lang ? 'true' : 'false',
        onclick: () => {
          if (language() === lang) return;
          setLanguage(lang);
          render();
          // Keep the keyboard where it was: on the switch.
          /** @type {HTMLElement | null} */ (
            document.querySelector('.lang-option[aria-pressed="true"]')
          )?.focus();
        },
      },
      label,
    );
  return h(
    'div',
    { class: 'lang-switch', role: 'group', 'aria-label': t('nav.language') },
    option('en', 'EN'),
    option('zh', '中文'),
  );
}

async function signOut() {
  try {
    await api('POST', '/logout');
  } catch (error) {
    // Signed out only when the service says so (or the session had already ended): never leave a
    // live cookie behind a page that says "signed out".
    if (!(error instanceof ApiError && error.status === 401)) {
      toast(error instanceof Error ? error.message : String(error), 'error');
      return;
    }
  }
  setSession(null);
  navigate('/console/login?signed_out=1', { replace: true });
}

onSessionLost(sessionEnded);
onActivity(activity);

function sessionEnded() {
  if (session === null) return;
  setSession(null);
  const next = encodeURIComponent(location.pathname + location.search);
  navigate(`/console/login?expired=1&next=${next}`, { replace: true });
}

// Links inside the console change the page without a reload; modified clicks keep their meaning.
document.addEventListener('click', (event) => {
  const target = event.target instanceof Element ? event.target.closest('a') : null;
  if (target === null || target.target !== '' || target.hasAttribute('download')) return;
  if (
    event.defaultPrevented ||
    event.button !== 0 ||
    event.metaKey ||
    event.ctrlKey ||
    event.shiftKey ||
    event.altKey
  )
    return;
  const url = new URL(target.href, location.href);
  if (
    url.origin !== location.origin ||
    !url.pathname.startsWith('/console') ||
    url.pathname.startsWith('/console/assets')
  )
    return;
  // A jump within the page (the skip link) stays a jump.
  if (url.hash !== '' && url.pathname === location.pathname) return;
  event.preventDefault();
  navigate(url.pathname + url.search);
});
window.addEventListener('popstate', render);
// Leaving the console (another site, closing the tab) drops the page and its revealed values,
// also from the back-forward cache.
window.addEventListener('pagehide', () => {
  if (typeof cleanup === 'function') cleanup();
  cleanup = undefined;
  root.replaceChildren();
});
window.addEventListener('pageshow', (event) => {
  if (event.persisted) render();
});

async function boot() {
  applyDocumentLanguage();
  meta = await (await fetch('/console/meta.json', { cache: 'no-store' })).json();
  try {
    const current = await api('GET', '/session');
    setSession(
      current.signed_in
        ? {
            username: current.username,
            role: current.role,
            csrf: current.csrf_token,
            idle: current.idle_timeout,
            enrol: current.mfa_enrolment_required,
          }
        : null,
    );
  } catch {
    setSession(null);
  }
  root.classList.remove('app-loading');
  render();
}

boot().catch((error) => {
  replace(root, h('p', { class: 'boot-error' }, `The console could not start: ${String(error)}`));
});
