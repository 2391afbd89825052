-- Issue 56: the audit trail as a hash chain (docs/SECURITY.md, PCI DSS v4 10.3.2). Each row written
-- from now on carries its place in the chain (`seq`, 1, 2, 3, ... without gaps, unlike `id`), the
-- hash of the row before it and its own hash over both and its content (src/audit/auditChain.ts).
-- The head (the last row's seq, id and hash) is one row that every audit writer updates first, so
-- that writers on several instances take their turn: the row lock is held to the commit.
--
-- Rows already in the trail are not chained here: their hash is the writer's (SHA-256 over its own
-- encoding, in TypeScript), which SQLite cannot compute in SQL, and chaining them would mean
-- updating rows the triggers keep append-only. The chain starts at a recorded genesis instead:
-- the highest id and the number of rows before it, so that `cardapply audit verify` can say which
-- rows predate the chain and notice one added or removed among them.
ALTER TABLE audit_log ADD COLUMN seq BIGINT;
ALTER TABLE audit_log ADD COLUMN prev_hash TEXT;
ALTER TABLE audit_log ADD COLUMN hash TEXT;
CREATE UNIQUE INDEX audit_log_seq ON audit_log (seq);

CREATE TABLE audit_chain_head (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  seq BIGINT NOT NULL,
  row_id BIGINT NOT NULL,
  hash TEXT NOT NULL,
  genesis_id BIGINT NOT NULL,
  genesis_rows BIGINT NOT NULL
);
INSERT INTO audit_chain_head (id, seq, row_id, hash, genesis_id, genesis_rows)
SELECT 1, 0, COALESCE(MAX(id), 0), repeat('0', 64), COALESCE(MAX(id), 0), COUNT(*) FROM audit_log;
