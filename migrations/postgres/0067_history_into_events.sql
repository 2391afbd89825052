-- The history written before 0066 moves into the events (0066 says why). Per application, the
-- n-th history row (by id) goes with the n-th event that is a change of state (by seq): every
-- change has written both, in one transaction, since the first release (the submission included:
-- the outbox came with it), so they pair one to one, at the same time. No table lock: the rows are
-- updated in place, and an event the earlier version writes meanwhile takes its history by 0066's
-- trigger (this update passes over it: its to_status is set).
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
UPDATE events e SET from_status = h.from_status, to_status = h.to_status, actor = h.actor,
    reason = h.reason, reason_codes = h.reason_codes, details = h.details
  FROM changes c JOIN history h ON h.busi_water_no = c.busi_water_no AND h.n = c.n
 WHERE e.event_id = c.event_id AND e.to_status IS NULL;

-- A history row with no event (none is known; a store repaired by hand could have one) keeps its
-- place in the history as an event after the application's others, already marked fanned out:
-- nothing is delivered for it, and it shows in the caller's event list like any other.
WITH history AS (
  SELECT t.*, row_number() OVER (PARTITION BY t.busi_water_no ORDER BY t.id) AS n
    FROM application_transitions t
), counted AS (
  SELECT busi_water_no, max(seq) AS last, count(*) FILTER (WHERE type IN (
    'application.submitted', 'application.in_review', 'application.approved', 'application.card_issued',
    'application.shipped', 'application.delivered', 'application.rejected', 'application.cancelled',
    'application.supplement_required', 'application.expired', 'application.returned', 'application.amended')) AS changes
    FROM events GROUP BY busi_water_no
)
INSERT INTO events (event_id, app_id, busi_water_no, type, payload, created_at, seq, fanned_out_at,
    from_status, to_status, actor, reason, reason_codes, details)
SELECT 'evt_' || md5(random()::text || clock_timestamp()::text || h.id), a.app_id, h.busi_water_no,
    'application.' || lower(h.to_status),
    json_build_object('busi_water_no', h.busi_water_no, 'status', h.to_status, 'previous_status', h.from_status,
      'reason', h.reason, 'reason_codes', coalesce(h.reason_codes, '[]')::json,
      'card_no_masked', a.card_no_masked, 'external_id', a.external_id)::text,
    h.at, coalesce(c.last, 0) + h.n - coalesce(c.changes, 0), h.at,
    h.from_status, h.to_status, h.actor, h.reason, h.reason_codes, h.details
  FROM history h JOIN applications a ON a.busi_water_no = h.busi_water_no
  LEFT JOIN counted c ON c.busi_water_no = h.busi_water_no
 WHERE h.n > coalesce(c.changes, 0);

-- The workload's decisions per hour (0050) counted from the events (approved, rejected), which both
-- versions write, instead of the history rows, which this one no longer writes; after the moves
-- above, which count nothing again. The lock waits for a change of the earlier version in flight
-- (its history row counted, its event not yet written) and holds the next until the commit.
LOCK TABLE application_transitions IN SHARE ROW EXCLUSIVE MODE;
DROP TRIGGER workload_decisions_insert ON application_transitions;
DROP TRIGGER workload_decisions_update ON application_transitions;
DROP TRIGGER workload_decisions_delete ON application_transitions;
DROP FUNCTION workload_decisions_add();

CREATE FUNCTION workload_decisions_add() RETURNS trigger LANGUAGE plpgsql
  SET search_path FROM CURRENT AS $$
DECLARE
  since CONSTANT BIGINT := workload_hours_since();
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO workload_hours (hour, shard, decisions)
      SELECT created_at / 3600000, pg_backend_pid() % 16, count(*) FROM new_rows
       WHERE type IN ('application.approved', 'application.rejected') AND created_at >= since GROUP BY 1
      ON CONFLICT (hour, shard) DO UPDATE SET decisions = workload_hours.decisions + EXCLUDED.decisions;
  ELSE
    INSERT INTO workload_hours (hour, shard, decisions)
      SELECT created_at / 3600000, pg_backend_pid() % 16, -count(*) FROM old_rows
       WHERE type IN ('application.approved', 'application.rejected') AND created_at >= since GROUP BY 1
      ON CONFLICT (hour, shard) DO UPDATE SET decisions = workload_hours.decisions + EXCLUDED.decisions;
  END IF;
  RETURN NULL;
END
$$;

-- A row trigger with a WHEN: a statement trigger with transition tables cannot name columns, and
-- would run for every fan-out mark of the dispatcher. Only a change of type or created_at moves a
-- decision (never, but for repairs and tests).
CREATE FUNCTION workload_decision_moved() RETURNS trigger LANGUAGE plpgsql
  SET search_path FROM CURRENT AS $$
DECLARE
  since CONSTANT BIGINT := workload_hours_since();
BEGIN
  INSERT INTO workload_hours (hour, shard, decisions)
    SELECT h, pg_backend_pid() % 16, sum(d) FROM (
        SELECT OLD.created_at / 3600000 AS h, -1 AS d
         WHERE OLD.type IN ('application.approved', 'application.rejected') AND OLD.created_at >= since
        UNION ALL
        SELECT NEW.created_at / 3600000, 1
         WHERE NEW.type IN ('application.approved', 'application.rejected') AND NEW.created_at >= since
      ) AS changes GROUP BY h
    ON CONFLICT (hour, shard) DO UPDATE SET decisions = workload_hours.decisions + EXCLUDED.decisions;
  RETURN NULL;
END
$$;

CREATE TRIGGER workload_decisions_insert AFTER INSERT ON events
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION workload_decisions_add();
CREATE TRIGGER workload_decisions_update AFTER UPDATE OF type, created_at ON events FOR EACH ROW
  WHEN (OLD.type IS DISTINCT FROM NEW.type OR OLD.created_at IS DISTINCT FROM NEW.created_at)
  EXECUTE FUNCTION workload_decision_moved();
CREATE TRIGGER workload_decisions_delete AFTER DELETE ON events
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION workload_decisions_add();
