/** The risk tables (migrations 0071 and 0079), as Kysely sees them; `tables.ts` lists them in Database. */
export interface RiskPoliciesTable {
  /** The first 16 hex digits of the SHA-256 of `content`. */
  version: string;
  name: string;
  /** The policy file's text, as it was in force. */
  content: string;
  first_used_at: number;
}

export interface RiskAssessmentsTable {
  id: string;
  busi_water_no: string;
  tier: string;
  score: number;
  routing: string;
  policy_version: string;
  /** JSON: the factors that fired (risk/assessment.ts's FiredFactor[]). */
  factors: string;
  /** JSON: the evidence weighed (risk/assessment.ts's RiskEvidence). */
  evidence: string;
  cause: string;
  assessed_at: number;
}

export interface RiskContactsTable {
  busi_water_no: string;
  /** `mobile` or `email`. */
  kind: string;
  /** The key ring's blind index of the canonical value. */
  hash: string;
  cert_hash: string;
}

/** An approval in enhanced review waiting for a second operator (migration 0079). */
export interface RiskApprovalRequestsTable {
  busi_water_no: string;
  /** The assessment (risk_assessments.id) it was asked on. */
  assessment_id: string;
  /** The operator's username. */
  requested_by: string;
  requested_at: number;
  /** JSON: risk/approvalDecision.ts's RecordedAcknowledgement[]. */
  acknowledgements: string;
}
