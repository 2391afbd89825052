/** An applicant's request through the partner (migration 0106): one row a request. */
export interface SubjectRequestsTable {
  request_id: string;
  app_id: string;
  kind: 'access' | 'portability' | 'correction' | 'deletion';
  status: 'received' | 'in_progress' | 'completed' | 'restricted' | 'refused';
  /** The application the partner named. */
  busi_water_no: string;
  /** The keyed hash of the person's identity document: the duplicate check's. */
  cert_hash: string;
  /** Every application of that person at that partner, as a JSON array of serials. */
  serials: string;
  reason_code: string | null;
  reason: string | null;
  /** `restricted`: kept under AML record keeping until then (Unix ms), erased at that date. */
  restricted_until: number | null;
  due_at: number;
  created_at: number;
  updated_at: number;
  ended_at: number | null;
  /** A correction answered by a request for information: the application asked (migration 0120). */
  linked_serial?: string | null;
}
