-- Applications submitted before documents were fetched (0040) have no documents.fetch job: their
-- status views would show every image pending for ever. The active ones (not final, not erased)
-- get one now, as a submission would have queued it; final ones keep no documents (their views
-- show none). Queued once: the key is the serial, and a second run finds it taken.
INSERT INTO jobs (
  id, kind, job_key, busi_water_no, payload, status, attempts, run_at, lease_until, leased_by,
  give_up_at, last_error, created_at, updated_at, finished_at
)
SELECT
  'job_backfill_' || busi_water_no, 'documents.fetch', 'backfill:' || busi_water_no, busi_water_no,
  '{"fields":["id_card_img","id_card_back_img","passport_img","sign_applicant","pay_voucher"]}',
  'pending', 0, CAST(strftime('%s', 'now') AS INTEGER) * 1000, NULL, NULL, NULL, NULL, CAST(strftime('%s', 'now') AS INTEGER) * 1000, CAST(strftime('%s', 'now') AS INTEGER) * 1000, NULL
FROM applications
WHERE erased_at IS NULL AND status NOT IN ('REJECTED', 'CANCELLED', 'EXPIRED', 'DELIVERED')
ON CONFLICT (kind, job_key) DO NOTHING;
