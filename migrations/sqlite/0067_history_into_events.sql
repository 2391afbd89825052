-- The history written before 0066 moves into the events (0066 says why). Per application, the
-- n-th history row (by id) goes with the n-th event that is a change of state (by seq): every
-- change has written both, in one transaction, since the first release (the submission included:
-- the outbox came with it), so they pair one to one, at the same time.
WITH history AS (
  SELECT t.*, row_number() OVER (PARTITION BY t.busi_water_no ORDER BY t.id) AS n
    FROM application_transitions t
), changes AS (
  SELECT e.event_id, e.busi_water_no, row_number() OVER (PARTITION BY e.busi_water_no ORDER BY e.seq) AS n
    FROM events e
   WHERE e.type IN (
    'application.submitted', 'application.in_review', 'application.approved', 'application.card_issued',
    'application.shipped', 'application.delivered', 'application.rejected', 'application.cancelled',
    'application.supplement_required', 'application.expired', 'application.returned', 'application.amended')
)
UPDATE events SET from_status = h.from_status, to_status = h.to_status, actor = h.actor,
    reason = h.reason, reason_codes = h.reason_codes, details = h.details
  FROM changes c JOIN history h ON h.busi_water_no = c.busi_water_no AND h.n = c.n
 WHERE events.event_id = c.event_id AND events.to_status IS NULL;

-- A history row with no event (none is known; a store repaired by hand could have one) keeps its
-- place in the history as an event after the application's others, already marked fanned out:
-- nothing is delivered for it, and it shows in the caller's event list like any other.
WITH history AS (
  SELECT t.*, row_number() OVER (PARTITION BY t.busi_water_no ORDER BY t.id) AS n
    FROM application_transitions t
), counted AS (
  SELECT busi_water_no, max(seq) AS last, sum(type IN (
    'application.submitted', 'application.in_review', 'application.approved', 'application.card_issued',
    'application.shipped', 'application.delivered', 'application.rejected', 'application.cancelled',
    'application.supplement_required', 'application.expired', 'application.returned', 'application.amended')) AS changes
    FROM events GROUP BY busi_water_no
)
INSERT INTO events (event_id, app_id, busi_water_no, type, payload, created_at, seq, fanned_out_at,
    from_status, to_status, actor, reason, reason_codes, details)
SELECT 'evt_' || lower(hex(randomblob(16))), a.app_id, h.busi_water_no, 'application.' || lower(h.to_status),
    json_object('busi_water_no', h.busi_water_no, 'status', h.to_status, 'previous_status', h.from_status,
      'reason', h.reason, 'reason_codes', json(coalesce(h.reason_codes, '[]')),
      'card_no_masked', a.card_no_masked, 'external_id', a.external_id),
    h.at, coalesce(c.last, 0) + h.n - coalesce(c.changes, 0), h.at,
    h.from_status, h.to_status, h.actor, h.reason, h.reason_codes, h.details
  FROM history h JOIN applications a ON a.busi_water_no = h.busi_water_no
  LEFT JOIN counted c ON c.busi_water_no = h.busi_water_no
 WHERE h.n > coalesce(c.changes, 0)
 ORDER BY h.busi_water_no, h.n;

-- The workload's decisions per hour (0050) counted from the events (approved, rejected), which both
-- versions write, instead of the history rows, which this one no longer writes; after the moves
-- above, which count nothing again.
DROP TRIGGER workload_decisions_insert;
DROP TRIGGER workload_decisions_update;
DROP TRIGGER workload_decisions_delete;

CREATE TRIGGER workload_decisions_insert AFTER INSERT ON events
  WHEN NEW.type IN ('application.approved', 'application.rejected')
    AND NEW.created_at >= unixepoch() * 1000 - 691200000 BEGIN
  INSERT INTO workload_hours (hour, decisions) VALUES (NEW.created_at / 3600000, 1)
    ON CONFLICT (hour) DO UPDATE SET decisions = decisions + 1;
END;

-- Only a change of type or created_at moves a decision (never, but for repairs and tests): the
-- dispatcher's fan-out mark fires nothing.
CREATE TRIGGER workload_decisions_update AFTER UPDATE OF type, created_at ON events BEGIN
  UPDATE workload_hours SET decisions = decisions - 1
   WHERE hour = OLD.created_at / 3600000 AND OLD.type IN ('application.approved', 'application.rejected')
     AND OLD.created_at >= unixepoch() * 1000 - 691200000;
  INSERT INTO workload_hours (hour, decisions)
    SELECT NEW.created_at / 3600000, 1
     WHERE NEW.type IN ('application.approved', 'application.rejected')
       AND NEW.created_at >= unixepoch() * 1000 - 691200000
    ON CONFLICT (hour) DO UPDATE SET decisions = decisions + 1;
END;

CREATE TRIGGER workload_decisions_delete AFTER DELETE ON events
  WHEN OLD.type IN ('application.approved', 'application.rejected')
    AND OLD.created_at >= unixepoch() * 1000 - 691200000 BEGIN
  UPDATE workload_hours SET decisions = decisions - 1 WHERE hour = OLD.created_at / 3600000;
END;
