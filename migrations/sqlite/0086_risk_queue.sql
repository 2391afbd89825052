-- Issue 52, the console: the review queue filters and sorts by risk tier, and the workload counts
-- the applications waiting per tier and the decisions the policy took itself.
--
-- applications.risk_rank: the tier of the application's latest assessment as a rank, so that one
-- index orders by it (0 not yet rated, 1 low, 2 medium, 3 high, 4 prohibited). Kept by a trigger on
-- risk_assessments: an assessment stored sets it, unless a later one is already stored (the view's
-- order, assessed_at then id). Every submission is unrated (0).
ALTER TABLE applications ADD COLUMN risk_rank INTEGER NOT NULL DEFAULT 0;

UPDATE applications SET risk_rank = (
  SELECT CASE r.tier WHEN 'low' THEN 1 WHEN 'medium' THEN 2 WHEN 'high' THEN 3 WHEN 'prohibited' THEN 4 ELSE 0 END
    FROM risk_assessments r WHERE r.busi_water_no = applications.busi_water_no
   ORDER BY r.assessed_at DESC, r.id DESC LIMIT 1)
 WHERE busi_water_no IN (SELECT busi_water_no FROM risk_assessments);

CREATE TRIGGER risk_rank_assessed AFTER INSERT ON risk_assessments
  WHEN NOT EXISTS (
    SELECT 1 FROM risk_assessments later
     WHERE later.busi_water_no = NEW.busi_water_no
       AND (later.assessed_at > NEW.assessed_at OR (later.assessed_at = NEW.assessed_at AND later.id > NEW.id)))
BEGIN
  UPDATE applications
     SET risk_rank = CASE NEW.tier WHEN 'low' THEN 1 WHEN 'medium' THEN 2 WHEN 'high' THEN 3
                                   WHEN 'prohibited' THEN 4 ELSE 0 END
   WHERE busi_water_no = NEW.busi_water_no;
END;

-- The queue by tier, and by status and tier, each in the listing's order (created_at, busi_water_no).
CREATE INDEX IF NOT EXISTS applications_risk_created ON applications (risk_rank, created_at, busi_water_no);
CREATE INDEX IF NOT EXISTS applications_status_risk_created
  ON applications (status, risk_rank, created_at, busi_water_no);

-- Rated applications that are not final, per tier: the workload's counts, kept by triggers in the
-- transaction of each change (a new rating, a move into or out of a final status, a delete), so the
-- page reads four rows at any size. Final: DELIVERED, REJECTED, CANCELLED, EXPIRED (lifecycle.ts).
CREATE TABLE risk_tier_counts (
  risk_rank INTEGER PRIMARY KEY,
  n INTEGER NOT NULL DEFAULT 0
) STRICT;
INSERT INTO risk_tier_counts (risk_rank, n)
  SELECT risk_rank, count(*) FROM applications
   WHERE risk_rank > 0 AND status NOT IN ('DELIVERED', 'REJECTED', 'CANCELLED', 'EXPIRED')
   GROUP BY risk_rank;

CREATE TRIGGER risk_tier_counts_update AFTER UPDATE OF risk_rank, status ON applications
  WHEN OLD.risk_rank <> NEW.risk_rank OR OLD.status <> NEW.status BEGIN
  UPDATE risk_tier_counts SET n = n - 1
   WHERE risk_rank = OLD.risk_rank AND OLD.risk_rank > 0
     AND OLD.status NOT IN ('DELIVERED', 'REJECTED', 'CANCELLED', 'EXPIRED');
  INSERT INTO risk_tier_counts (risk_rank, n)
    SELECT NEW.risk_rank, 1
     WHERE NEW.risk_rank > 0 AND NEW.status NOT IN ('DELIVERED', 'REJECTED', 'CANCELLED', 'EXPIRED')
    ON CONFLICT (risk_rank) DO UPDATE SET n = n + 1;
END;

CREATE TRIGGER risk_tier_counts_delete AFTER DELETE ON applications
  WHEN OLD.risk_rank > 0 AND OLD.status NOT IN ('DELIVERED', 'REJECTED', 'CANCELLED', 'EXPIRED') BEGIN
  UPDATE risk_tier_counts SET n = n - 1 WHERE risk_rank = OLD.risk_rank;
END;

-- The decisions the policy took itself (straight-through approvals, declines: the actor of their
-- event is `policy:<version>`), per hour beside all decisions (0050, 0067), for the straight-through
-- share. No store holds one yet (the routing was not acted on before this round), so there is
-- nothing to fill, and nothing to read the events for.
ALTER TABLE workload_hours ADD COLUMN policy_decisions INTEGER NOT NULL DEFAULT 0;

CREATE TRIGGER workload_policy_decisions_insert AFTER INSERT ON events
  WHEN NEW.type IN ('application.approved', 'application.rejected') AND NEW.actor LIKE 'policy:%'
   AND NEW.created_at >= unixepoch() * 1000 - 691200000 BEGIN
  INSERT INTO workload_hours (hour, policy_decisions) VALUES (NEW.created_at / 3600000, 1)
    ON CONFLICT (hour) DO UPDATE SET policy_decisions = policy_decisions + 1;
END;

CREATE TRIGGER workload_policy_decisions_delete AFTER DELETE ON events
  WHEN OLD.type IN ('application.approved', 'application.rejected') AND OLD.actor LIKE 'policy:%'
   AND OLD.created_at >= unixepoch() * 1000 - 691200000 BEGIN
  UPDATE workload_hours SET policy_decisions = policy_decisions - 1 WHERE hour = OLD.created_at / 3600000;
END;
