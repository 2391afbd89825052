-- Issue 52: one explainable risk rating per application (docs/RISK.md). Each assessment is kept,
-- so the latest is the application's rating and the earlier ones its risk history; the policy it
-- was made under is kept by its version (the hash of its text), so `cardapply risk explain` can
-- make it again years later. Nothing here is shown to the partner.
CREATE TABLE risk_policies (
  version TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  content TEXT NOT NULL,
  first_used_at INTEGER NOT NULL
) WITHOUT ROWID;

CREATE TABLE risk_assessments (
  id TEXT PRIMARY KEY,
  busi_water_no TEXT NOT NULL REFERENCES applications (busi_water_no),
  tier TEXT NOT NULL,
  score INTEGER NOT NULL,
  routing TEXT NOT NULL,
  policy_version TEXT NOT NULL REFERENCES risk_policies (version),
  -- JSON: the factors that fired, each with its weight and evidence (never an identity value).
  factors TEXT NOT NULL,
  -- JSON: the evidence the factors were weighed on, so that the assessment can be made again.
  evidence TEXT NOT NULL,
  -- What asked for it: the event type or job that brought new evidence.
  cause TEXT NOT NULL,
  assessed_at INTEGER NOT NULL
);
CREATE INDEX risk_assessments_application ON risk_assessments (busi_water_no, assessed_at);
CREATE INDEX risk_assessments_time ON risk_assessments (assessed_at);

-- Keyed hashes (the key ring's blind index) of the contact details an assessment read, so that the
-- same mobile number or e-mail given by different applicants is found without either in the clear.
CREATE TABLE risk_contacts (
  busi_water_no TEXT NOT NULL REFERENCES applications (busi_water_no),
  kind TEXT NOT NULL,
  hash TEXT NOT NULL,
  -- The applicant's document (applications.cert_hash): the same person applying twice is no match.
  cert_hash TEXT NOT NULL,
  PRIMARY KEY (busi_water_no, kind)
) WITHOUT ROWID;
CREATE INDEX risk_contacts_hash ON risk_contacts (kind, hash);

-- An operator's risk level for a partner (audited): low unless set.
ALTER TABLE apps ADD COLUMN risk_level TEXT;
