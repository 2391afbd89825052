-- Issue 52, the console: the review queue filters and sorts by risk tier, and the workload counts
-- the applications waiting per tier and the decisions the policy took itself.
--
-- applications.risk_rank: the tier of the application's latest assessment as a rank, so that one
-- index orders by it (0 not yet rated, 1 low, 2 medium, 3 high, 4 prohibited). Kept by a trigger on
-- risk_assessments: an assessment stored sets it, unless a later one is already stored (the view's
-- order, assessed_at then id). Every submission is unrated (0). A constant default: no rewrite of
-- the table; the ALTER's lock holds writers only for this transaction, whose fills read the
-- assessments (made since 0071), not the applications. The indexes are built concurrently (0087).
ALTER TABLE applications ADD COLUMN risk_rank SMALLINT NOT NULL DEFAULT 0;

CREATE FUNCTION risk_rank_of(tier TEXT) RETURNS SMALLINT LANGUAGE sql IMMUTABLE AS $$
  SELECT (CASE tier WHEN 'low' THEN 1 WHEN 'medium' THEN 2 WHEN 'high' THEN 3 WHEN 'prohibited' THEN 4 ELSE 0 END)::smallint
$$;

UPDATE applications a SET risk_rank = risk_rank_of(latest.tier)
  FROM (SELECT DISTINCT ON (busi_water_no) busi_water_no, tier FROM risk_assessments
         ORDER BY busi_water_no, assessed_at DESC, id DESC) AS latest
 WHERE a.busi_water_no = latest.busi_water_no;

-- SET search_path FROM CURRENT: the migration's schema, since the service sets none.
CREATE FUNCTION risk_rank_assessed() RETURNS trigger LANGUAGE plpgsql
  SET search_path FROM CURRENT AS $$
BEGIN
  IF NOT EXISTS (
    SELECT 1 FROM risk_assessments later
     WHERE later.busi_water_no = NEW.busi_water_no
       AND (later.assessed_at > NEW.assessed_at OR (later.assessed_at = NEW.assessed_at AND later.id > NEW.id))
  ) THEN
    UPDATE applications SET risk_rank = risk_rank_of(NEW.tier)
     WHERE busi_water_no = NEW.busi_water_no AND risk_rank <> risk_rank_of(NEW.tier);
  END IF;
  RETURN NULL;
END
$$;
CREATE TRIGGER risk_rank_assessed AFTER INSERT ON risk_assessments
  FOR EACH ROW EXECUTE FUNCTION risk_rank_assessed();

-- Rated applications that are not final, per tier: the workload's counts, kept by triggers in the
-- transaction of each change (a new rating, a move into or out of a final status, a delete), so the
-- page reads a few rows at any size. Final: DELIVERED, REJECTED, CANCELLED, EXPIRED (lifecycle.ts).
-- Each connection adds to its own shard (its backend pid modulo 16), as in application_counts.
CREATE TABLE risk_tier_counts (
  risk_rank SMALLINT NOT NULL,
  shard SMALLINT NOT NULL,
  n BIGINT NOT NULL,
  PRIMARY KEY (risk_rank, shard)
);
INSERT INTO risk_tier_counts (risk_rank, shard, n)
  SELECT a.risk_rank, 0, count(*) FROM applications a
   WHERE a.busi_water_no IN (SELECT busi_water_no FROM risk_assessments)
     AND a.risk_rank > 0 AND a.status NOT IN ('DELIVERED', 'REJECTED', 'CANCELLED', 'EXPIRED')
   GROUP BY a.risk_rank;

CREATE FUNCTION risk_tier_counts_add() RETURNS trigger LANGUAGE plpgsql
  SET search_path FROM CURRENT AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') AND OLD.risk_rank > 0
     AND OLD.status NOT IN ('DELIVERED', 'REJECTED', 'CANCELLED', 'EXPIRED') THEN
    INSERT INTO risk_tier_counts (risk_rank, shard, n) VALUES (OLD.risk_rank, pg_backend_pid() % 16, -1)
      ON CONFLICT (risk_rank, shard) DO UPDATE SET n = risk_tier_counts.n - 1;
  END IF;
  IF TG_OP = 'UPDATE' AND NEW.risk_rank > 0
     AND NEW.status NOT IN ('DELIVERED', 'REJECTED', 'CANCELLED', 'EXPIRED') THEN
    INSERT INTO risk_tier_counts (risk_rank, shard, n) VALUES (NEW.risk_rank, pg_backend_pid() % 16, 1)
      ON CONFLICT (risk_rank, shard) DO UPDATE SET n = risk_tier_counts.n + 1;
  END IF;
  RETURN NULL;
END
$$;
-- Row triggers with a WHEN: only a change of rating or status runs them, never a submission.
CREATE TRIGGER risk_tier_counts_update AFTER UPDATE OF risk_rank, status ON applications FOR EACH ROW
  WHEN (OLD.risk_rank IS DISTINCT FROM NEW.risk_rank OR OLD.status IS DISTINCT FROM NEW.status)
  EXECUTE FUNCTION risk_tier_counts_add();
CREATE TRIGGER risk_tier_counts_delete AFTER DELETE ON applications FOR EACH ROW
  WHEN (OLD.risk_rank > 0) EXECUTE FUNCTION risk_tier_counts_add();

-- The decisions the policy took itself (straight-through approvals, declines: the actor of their
-- event is `policy:<version>`), per hour beside all decisions (0050, 0067), for the straight-through
-- share: counted by the same statement as the decisions. No store holds one yet (the routing was
-- not acted on before this round), so there is nothing to fill.
ALTER TABLE workload_hours ADD COLUMN policy_decisions BIGINT NOT NULL DEFAULT 0;

CREATE OR REPLACE FUNCTION workload_decisions_add() RETURNS trigger LANGUAGE plpgsql
  SET search_path FROM CURRENT AS $$
DECLARE
  since CONSTANT BIGINT := workload_hours_since();
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO workload_hours (hour, shard, decisions, policy_decisions)
      SELECT created_at / 3600000, pg_backend_pid() % 16, count(*),
             count(*) FILTER (WHERE actor LIKE 'policy:%') FROM new_rows
       WHERE type IN ('application.approved', 'application.rejected') AND created_at >= since GROUP BY 1
      ON CONFLICT (hour, shard) DO UPDATE SET decisions = workload_hours.decisions + EXCLUDED.decisions,
        policy_decisions = workload_hours.policy_decisions + EXCLUDED.policy_decisions;
  ELSE
    INSERT INTO workload_hours (hour, shard, decisions, policy_decisions)
      SELECT created_at / 3600000, pg_backend_pid() % 16, -count(*),
             -count(*) FILTER (WHERE actor LIKE 'policy:%') FROM old_rows
       WHERE type IN ('application.approved', 'application.rejected') AND created_at >= since GROUP BY 1
      ON CONFLICT (hour, shard) DO UPDATE SET decisions = workload_hours.decisions + EXCLUDED.decisions,
        policy_decisions = workload_hours.policy_decisions + EXCLUDED.policy_decisions;
  END IF;
  RETURN NULL;
END
$$;
