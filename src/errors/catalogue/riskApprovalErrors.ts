import { entry, type CatalogueEntry } from './entry.ts';

/**
 * An operator's approval weighed against the application's risk rating (docs/RISK.md): operators
 * only; a partner never meets these (no tipping off).
 */
export const RISK_APPROVAL_ERRORS = {
  riskFactorBlocksApproval: entry(
    40980,
    'risk_factor_blocks_approval',
    'status: cannot approve while the risk factor(s) {factors} are open; they block approval',
    'status: 风险因素 {factors} 尚未消除，不能批准',
  ),
  riskApprovalSameOperator: entry(
    40981,
    'risk_approval_same_operator',
    'status: this application is in enhanced review and you asked for its approval; a second operator must confirm it',
    'status: 该申请需加强审核，批准由您发起，须由另一名操作员确认',
  ),
  riskAcknowledgementMissing: entry(
    42281,
    'risk_acknowledgement_missing',
    'risk_acknowledgements: approving with the open high-risk factor(s) {factors} needs a note for each',
    'risk_acknowledgements: 批准时须为每个未消除的高风险因素填写说明：{factors}',
  ),
} as const satisfies Record<string, CatalogueEntry>;
