/**
 * What the application page holds: the service's view of the application, the values revealed on
 * this visit (in memory only: leaving the page drops them), the purpose given at the first reveal,
 * and the partner's name.
 */

/**
 * @typedef {import('../applicationHistory.js').RiskFlag} RiskFlag
 * @typedef {import('../applicationHistory.js').Transition} Transition
 * @typedef {{
 *   busi_water_no: string, app_id: string, status: string, status_reason: string | null, reason_codes?: string[], requested_fields?: string[], cert_type: string,
 *   card_no_masked: string, version: number, created_at: number, updated_at: number,
 *   application: Record<string, unknown>, history: Transition[], risk_flags: RiskFlag[],
 *   documents?: Record<string, import('../applicationDocuments.js').DocumentOutcome>,
 *   screening_hits?: import('../screening.js').ScreeningHit[],
 *   pep_matches?: import('../pepMatches.js').PepMatch[],
 *   risk?: import('../riskRating.js').RiskView | null,
 * }} View
 */

/** @typedef {{ action: string, to: string, reason_required: boolean, codes_required: boolean, fields_required: boolean, details_required: string[], details_optional: string[] }} Move */

/** @typedef {{ purpose: string, purpose_text?: string }} Purpose */

/**
 * @typedef {{
 *   view: View | null,
 *   revealed: Map<string, unknown>,
 *   purpose: Purpose | null,
 *   appName: string,
 *   stopped: boolean,
 * }} ApplicationState
 * purpose: given at the first reveal of this visit, the later ones give it again; appName: the
 * partner's, beside its app id ('' until known); stopped: the page was left, late answers are dropped
 */

/** @returns {ApplicationState} */
export const applicationState = () => ({
  view: null,
  revealed: new Map(),
  purpose: null,
  appName: '',
  stopped: false,
});
