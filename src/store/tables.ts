import type {
  AccessTokensTable,
  AppSecretsTable,
  AppsTable,
  AuditChainHeadTable,
  AuditLogTable,
  IdempotencyKeysTable,
  OperatorPasswordHistoryTable,
  OperatorRecoveryCodesTable,
  OperatorSessionsTable,
  OperatorTotpTable,
  OperatorsTable,
} from './accountTables.ts';
import type {
  ApplicationsTable,
  ApplicationTransitionsTable,
  EventsPendingTable,
  EventsTable,
  ReviewClaimsTable,
} from './applicationTables.ts';
import type {
  ApplicationCountsTable,
  ApplicationDaysTable,
  CounterFillsTable,
  WorkloadHoursTable,
  RiskTierCountsTable,
} from './counterTables.ts';
import type {
  DeliveriesTable,
  DeliveryAttemptsTable,
  JobsTable,
  WebhookEndpointsTable,
  WebhookSecretsTable,
} from './deliveryTables.ts';
import type { DocumentChunksTable, DocumentsTable } from './documentTables.ts';
import type {
  RiskApprovalRequestsTable,
  RiskAssessmentsTable,
  RiskContactsTable,
  RiskPoliciesTable,
} from './riskTables.ts';
import type {
  ScreeningEntriesTable,
  ScreeningHitsTable,
  ScreeningListsTable,
  ScreeningPepMatchesTable,
} from './screeningTables.ts';
import type { SubjectExportChunksTable, SubjectExportsTable } from './subjectExportTables.ts';
import type { SubjectRequestsTable } from './subjectTables.ts';

export type * from './accountTables.ts';
export type * from './applicationTables.ts';
export type * from './counterTables.ts';
export type * from './deliveryTables.ts';
export type * from './documentTables.ts';
export type * from './riskTables.ts';
export type * from './subjectTables.ts';
export type * from './subjectExportTables.ts';

/**
 * The tables, as Kysely sees them. Times are Unix milliseconds (BIGINT / INTEGER) everywhere in the
 * store; the wire shows seconds. Booleans are never stored (node:sqlite has none).
 *
 * Each table's row is declared in the file of its area beside this one: applicationTables.ts (the
 * application, its events and review claim), counterTables.ts, accountTables.ts (partners,
 * operators, idempotency records, the audit trail), deliveryTables.ts (webhooks and jobs),
 * documentTables.ts, screeningTables.ts and riskTables.ts. This file is where the rest imports them from.
 */
export interface Database {
  apps: AppsTable;
  app_secrets: AppSecretsTable;
  access_tokens: AccessTokensTable;
  applications: ApplicationsTable;
  /** The history before migration 0066; only an instance of the earlier version still writes it. */
  application_transitions: ApplicationTransitionsTable;
  application_counts: ApplicationCountsTable;
  workload_hours: WorkloadHoursTable;
  risk_tier_counts: RiskTierCountsTable;
  application_days: ApplicationDaysTable;
  counter_fills: CounterFillsTable;
  idempotency_keys: IdempotencyKeysTable;
  operators: OperatorsTable;
  operator_sessions: OperatorSessionsTable;
  operator_password_history: OperatorPasswordHistoryTable;
  operator_recovery_codes: OperatorRecoveryCodesTable;
  operator_totp: OperatorTotpTable;
  review_claims: ReviewClaimsTable;
  audit_log: AuditLogTable;
  audit_chain_head: AuditChainHeadTable;
  events: EventsTable;
  events_pending: EventsPendingTable;
  subject_requests: SubjectRequestsTable;
  subject_exports: SubjectExportsTable;
  subject_export_chunks: SubjectExportChunksTable;
  webhook_endpoints: WebhookEndpointsTable;
  webhook_secrets: WebhookSecretsTable;
  deliveries: DeliveriesTable;
  delivery_attempts: DeliveryAttemptsTable;
  jobs: JobsTable;
  documents: DocumentsTable;
  document_chunks: DocumentChunksTable;
  screening_lists: ScreeningListsTable;
  screening_entries: ScreeningEntriesTable;
  screening_hits: ScreeningHitsTable;
  screening_pep_matches: ScreeningPepMatchesTable;
  risk_policies: RiskPoliciesTable;
  risk_assessments: RiskAssessmentsTable;
  risk_contacts: RiskContactsTable;
  risk_approval_requests: RiskApprovalRequestsTable;
}
