-- Issue 52: an approval in enhanced review takes two operators (docs/RISK.md, "Approval"). The
-- first operator's approve is kept here, pending, until a different operator confirms it; any
-- move out of IN_REVIEW (the approval itself, a rejection, a supplement, a cancel) drops it. The
-- audit trail keeps every request and its confirmation; this table holds only what is pending.
-- Never shown to the partner.
CREATE TABLE risk_approval_requests (
  busi_water_no TEXT PRIMARY KEY REFERENCES applications (busi_water_no),
  -- The assessment (risk_assessments.id) it was asked on: a newer one means the evidence changed.
  assessment_id TEXT NOT NULL,
  requested_by TEXT NOT NULL,
  requested_at INTEGER NOT NULL,
  -- JSON: the first operator's acknowledgements of the open factors, [{code, high, note?}].
  acknowledgements TEXT NOT NULL
) WITHOUT ROWID;
