-- Issue 22: the submission batch as a function, so that PostgreSQL plans it once per connection.
-- Sent as a statement (pg's unnamed statements: a pooler in transaction mode cannot keep named
-- ones), the batch was parsed and planned at every execution: a statement of 31 arrays and four
-- data-modifying CTEs, about a third of what a batch cost the server. PL/pgSQL keeps the plan of
-- the query below for the life of the server connection, through a pooler as well.
--
-- The service calls it as `insert_submissions($1, ..., $31)` (src/store/postgresSubmissions.ts,
-- which documents the batch and builds the 31 arrays in this order). A later change of the
-- arguments or of the result is a function of another name: during a rolling deploy the earlier
-- version still calls this one.
CREATE FUNCTION insert_submissions(
  text[], text[], text[], text[], text[], text[], text[], text[], text[],
  text[], text[], int[], bigint[], bigint[], text[], text[],
  text[], text[], text[], bigint[], int[], bigint[],
  text[], text[], text[], text[], text[], text[],
  text[], text[], text[])
RETURNS TABLE (busi_water_no text, stored boolean, claim_lost boolean)
LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY
  WITH input AS (
     SELECT * FROM unnest($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16,
       $17, $18, $19, $20, $21, $22, $23, $24, $25, $26, $27, $28, $29, $30, $31)
       AS i (busi_water_no, app_id, status, status_reason, cert_type, cert_hash, active_cert_hash,
       card_no_hash, card_no_masked, payload_enc, key_id, version, created_at, updated_at,
       external_id, active_external_id,
       e_id, e_type, e_payload, e_created_at, e_seq, e_fanned_out_at,
       e_from, e_to, e_actor, e_reason, e_reason_codes, e_details,
       k_key, k_token, k_result)
   ),
   held AS (
     SELECT k.app_id, k.idempotency_key
       FROM idempotency_keys k
       JOIN input i ON k.app_id = i.app_id AND k.idempotency_key = i.k_key AND k.claim_token = i.k_token
      WHERE k.state = 'in_progress'
        FOR UPDATE OF k
   ),
   inserted AS (
     INSERT INTO applications (busi_water_no, app_id, status, status_reason, cert_type, cert_hash,
       active_cert_hash, card_no_hash, card_no_masked, payload_enc, key_id, version, created_at, updated_at,
       external_id, active_external_id)
     SELECT i.busi_water_no, i.app_id, i.status, i.status_reason, i.cert_type, i.cert_hash, i.active_cert_hash,
       i.card_no_hash, i.card_no_masked, i.payload_enc, i.key_id, i.version, i.created_at, i.updated_at,
       i.external_id, i.active_external_id
       FROM input i
      WHERE i.k_key IS NULL
         OR EXISTS (SELECT 1 FROM held h WHERE h.app_id = i.app_id AND h.idempotency_key = i.k_key)
      ORDER BY i.active_cert_hash
     ON CONFLICT DO NOTHING
     RETURNING applications.busi_water_no
   ),
   events AS (
     INSERT INTO events (event_id, app_id, busi_water_no, type, payload, created_at, seq, fanned_out_at,
       from_status, to_status, actor, reason, reason_codes, details)
     SELECT i.e_id, i.app_id, i.busi_water_no, i.e_type, i.e_payload, i.e_created_at, i.e_seq, i.e_fanned_out_at,
       i.e_from, i.e_to, i.e_actor, i.e_reason, i.e_reason_codes, i.e_details
       FROM input i JOIN inserted n ON n.busi_water_no = i.busi_water_no
   ),
   completed AS (
     UPDATE idempotency_keys k
        SET state = 'completed', result = i.k_result, locked_until = NULL
       FROM input i JOIN inserted n ON n.busi_water_no = i.busi_water_no
      WHERE k.app_id = i.app_id AND k.idempotency_key = i.k_key AND k.claim_token = i.k_token
   )
   SELECT i.busi_water_no,
          n.busi_water_no IS NOT NULL,
          i.k_key IS NOT NULL
            AND NOT EXISTS (SELECT 1 FROM held h WHERE h.app_id = i.app_id AND h.idempotency_key = i.k_key)
     FROM input i LEFT JOIN inserted n ON n.busi_water_no = i.busi_water_no;
END
$$;
