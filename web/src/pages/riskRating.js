import { formatTime, h } from '../dom.js';
import { codeName, t } from '../i18n.js';
import { mono } from '../ui.js';

/**
 * The risk rating in the console (docs/RISK.md): the tier, score, routing, policy version and time
 * of the latest assessment, and each factor that fired with its weight and its evidence in words
 * ("why"): field names, list references, other serials, days, levels. The evidence never holds an
 * identity value; each factor is named in the operator's language, its code shown small beside it.
 * Also the tier's badge for the queue and the workload.
 */

/**
 * @typedef {{ code: string, weight: number, evidence: Record<string, unknown>, blocks_approval?: boolean, needs_note?: boolean }} RiskFactor
 * @typedef {{ tier: string, score: number, routing: string, policy_version: string, assessed_at: number, factors: RiskFactor[] }} RiskView
 * @typedef {import('../context.js').PageContext} PageContext
 */

export const TIERS = ['low', 'medium', 'high', 'prohibited'];

/** A tier's badge; "not yet rated" for null. @param {string | null | undefined} tier */
export function tierBadge(tier) {
  const name = tier ?? 'unrated';
  return h('span', { class: `badge tier tier-${name}`, 'data-tier': name }, t(`riskTier.${name}`));
}

/** A factor's name in the operator's language. @param {string} code */
export const factorLabel = (code) => t(`riskFactor.${code}`);

/** @param {unknown} value @returns {Record<string, unknown>[]} */
const records = (value) =>
  Array.isArray(value) ? value.filter((v) => typeof v === 'object' && v !== null) : [];
/** @param {unknown} value @returns {string[]} */
const strings = (value) => (Array.isArray(value) ? value.map(String) : []);

/**
 * A code table entry's name, or the code itself.
 * @param {PageContext} ctx
 * @param {string} table
 * @param {unknown} code
 */
function codeText(ctx, table, code) {
  const entry = (ctx.meta.codes[table] ?? []).find((e) => e.code === code);
  return entry === undefined ? String(code) : `${codeName(entry)} (${String(code)})`;
}

/**
 * Why a factor fired, in words: what its evidence holds (never an identity value).
 * @param {PageContext} ctx
 * @param {RiskFactor} factor
 * @param {(field: string) => string} fieldLabel
 * @returns {string}
 */
export function factorWhy(ctx, factor, fieldLabel) {
  const e = factor.evidence;
  const fields = () => strings(e['fields']).map(fieldLabel).join(t('risk.listSeparator'));
  switch (factor.code) {
    case 'sanctions_hit':
      return records(e['hits'])
        .map((hit) =>
          t('riskWhy.listEntry', { list: String(hit['list']), reference: String(hit['reference']) }),
        )
        .join(t('risk.listSeparator'));
    case 'pep_match':
      return records(e['matches'])
        .map((m) =>
          t('riskWhy.pep', {
            list: String(m['list']),
            reference: String(m['reference']),
            role: t(`pep.role.${String(m['role'])}`),
            position: m['position'] === null || m['position'] === undefined ? '—' : String(m['position']),
          }),
        )
        .join(t('risk.listSeparator'));
    case 'required_image_missing':
    case 'other_text_missing':
      return fields();
    case 'image_refused':
      return records(e['images'])
        .map((i) =>
          t('riskWhy.imageRefused', {
            field: fieldLabel(String(i['field'])),
            reason: t(`documents.reason.${String(i['reason'])}`),
          }),
        )
        .join(t('risk.listSeparator'));
    case 'image_reused':
      return records(e['images'])
        .map((i) =>
          t('riskWhy.imageReused', {
            field: fieldLabel(String(i['field'])),
            serials: strings(i['serials']).join(', '),
          }),
        )
        .join(t('risk.listSeparator'));
    case 'shared_mobile':
    case 'shared_email':
      return t('riskWhy.shared', {
        n: Number(e['applications'] ?? 0),
        serials: strings(e['serials']).join(', '),
      });
    case 'country_call_for_action':
    case 'country_increased_monitoring':
      return t('riskWhy.country', {
        country: codeText(ctx, 'country', e['country']),
        as_of: String(e['as_of']),
      });
    case 'profession_risk':
      return t('riskWhy.profession', {
        profession: codeText(ctx, 'profession', e['profession']),
        level: t(`riskLevel.${String(e['level'])}`),
      });
    case 'document_expiring':
      return t('riskWhy.expiring', { days: Number(e['days_left'] ?? 0) });
    case 'partner_risk':
      return t('riskWhy.partner', { level: t(`riskLevel.${String(e['level'])}`) });
    default:
      return Object.entries(e)
        .map(
          ([name, value]) => `${name}: ${typeof value === 'object' ? JSON.stringify(value) : String(value)}`,
        )
        .join(t('risk.listSeparator'));
  }
}

/**
 * One factor: its name, weight and marks (blocks approval, needs a note), why it fired, its code.
 * @param {PageContext} ctx
 * @param {RiskFactor} factor
 * @param {(field: string) => string} fieldLabel
 */
function factorItem(ctx, factor, fieldLabel) {
  return h(
    'li',
    { class: 'risk-factor', 'data-factor': factor.code },
    h(
      'p',
      { class: 'risk-factor-head' },
      h('strong', { class: 'risk-factor-label' }, factorLabel(factor.code)),
      ' ',
      h('span', { class: 'risk-weight' }, t('riskRating.weight', { weight: factor.weight })),
      factor.blocks_approval === true
        ? h('span', { class: 'badge tier-prohibited risk-mark' }, t('riskRating.blocks'))
        : null,
      factor.needs_note === true
        ? h('span', { class: 'badge tier-high risk-mark' }, t('riskRating.high'))
        : null,
    ),
    h(
      'p',
      { class: 'risk-why small' },
      h('span', { class: 'muted' }, `${t('riskRating.why')} `),
      factorWhy(ctx, factor, fieldLabel),
    ),
    h('p', { class: 'risk-code small muted' }, mono(factor.code)),
  );
}

/**
 * The rating's card on the application page; "not yet rated" before the first assessment.
 * @param {RiskView | null | undefined} risk
 * @param {{ ctx: PageContext, fieldLabel: (field: string) => string }} options
 */
export function riskRatingPanel(risk, { ctx, fieldLabel }) {
  const title = h('h2', { id: 'rating-title' }, t('riskRating.title'));
  if (risk === null || risk === undefined)
    return h(
      'section',
      { class: 'card risk-rating', 'aria-labelledby': 'rating-title', 'data-tier': 'unrated' },
      title,
      h('p', { class: 'muted' }, t('riskRating.none')),
    );
  /** @param {string} label @param {Node | string} value */
  const item = (label, value) => h('div', {}, h('dt', {}, label), h('dd', {}, value));
  return h(
    'section',
    { class: 'card risk-rating', 'aria-labelledby': 'rating-title', 'data-tier': risk.tier },
    title,
    h(
      'dl',
      { class: 'app-meta risk-summary' },
      item(t('riskRating.tier'), tierBadge(risk.tier)),
      item(t('riskRating.score'), String(risk.score)),
      item(t('riskRating.routing'), t(`riskRouting.${risk.routing}`)),
      item(t('riskRating.assessedAt'), formatTime(risk.assessed_at)),
      item(t('riskRating.policy'), mono(risk.policy_version)),
    ),
    h('h3', { class: 'small' }, t('riskRating.factors')),
    risk.factors.length === 0
      ? h('p', { class: 'muted' }, t('riskRating.noFactors'))
      : h(
          'ul',
          { class: 'risk-factors', 'aria-label': t('riskRating.factors') },
          risk.factors.map((f) => factorItem(ctx, f, fieldLabel)),
        ),
  );
}
