-- cardapply:concurrently
-- Issue 52, the console (0086): the queue by tier, and by status and tier, each in the listing's
-- order (created_at, busi_water_no), built without blocking writes.
CREATE INDEX CONCURRENTLY IF NOT EXISTS applications_risk_created
  ON applications (risk_rank, created_at, busi_water_no);
CREATE INDEX CONCURRENTLY IF NOT EXISTS applications_status_risk_created
  ON applications (status, risk_rank, created_at, busi_water_no);
