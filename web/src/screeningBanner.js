import { api } from './api.js';
import { h, replace } from './dom.js';
import { t } from './i18n.js';

/**
 * The banner over every page while sanctions screening is off or stale (docs/SCREENING.md): no
 * list in force, or a list whose newest import is older than `SCREENING_MAX_AGE_DAYS`. The service
 * is then not ready (unless `SCREENING_REQUIRED=false`) and, with no list at all, refuses every
 * approval; the banner says so before an operator meets the refusal. Read again at most once a
 * minute as the operator moves between pages.
 */

/** @typedef {{ reason: 'no_list' } | { reason: 'stale', list: string, age_days: number }} ScreeningProblem */
/** @typedef {{ required: boolean, max_age_days: number, problems: ScreeningProblem[] }} ScreeningReadiness */

const REFRESH_MS = 60_000;
/** @type {{ at: number, readiness: Promise<ScreeningReadiness | null> } | undefined} */
let held;

/** @param {ScreeningReadiness} readiness @param {ScreeningProblem} problem */
function problemText(readiness, problem) {
  return problem.reason === 'no_list'
    ? t('screeningBanner.no_list')
    : t('screeningBanner.stale', {
        list: problem.list,
        days: problem.age_days,
        max: readiness.max_age_days,
      });
}

/** An element that fills itself once the readiness is read; empty (and hidden) when all is well. */
export function screeningBanner() {
  const banner = h('div', { class: 'screening-banner', hidden: true });
  if (held === undefined || Date.now() - held.at > REFRESH_MS) {
    held = {
      at: Date.now(),
      readiness: /** @type {Promise<ScreeningReadiness>} */ (api('GET', '/screening/readiness')).catch(
        () => null,
      ),
    };
  }
  void held.readiness.then((readiness) => {
    if (readiness === null || readiness.problems.length === 0) return;
    banner.hidden = false;
    banner.setAttribute('role', 'alert');
    banner.className = 'screening-banner notice notice-error';
    replace(
      banner,
      h('strong', {}, t('screeningBanner.title')),
      ' ',
      readiness.problems.map((problem) => problemText(readiness, problem)).join(' '),
      ' ',
      t(readiness.required ? 'screeningBanner.required' : 'screeningBanner.not_required'),
    );
  });
  return banner;
}
