-- An operation that records its own success in its transaction (the submit) stores its domain
-- result here, as JSON; the HTTP layer builds the response from it when it replays. Responses the
-- HTTP layer records itself (errors, other routes) stay in status_code and response_body.
ALTER TABLE idempotency_keys ADD COLUMN result TEXT;
