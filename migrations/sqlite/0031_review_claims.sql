-- Review claims: a reviewer holds an application in review for a while (others see who), which
-- lets them open its identity fields and images for review in one audited action.
CREATE TABLE review_claims (
  busi_water_no TEXT PRIMARY KEY REFERENCES applications (busi_water_no),
  username TEXT NOT NULL REFERENCES operators (username),
  claimed_at INTEGER NOT NULL,
  -- The claim lapses then unless renewed (REVIEW_CLAIM_SECONDS).
  expires_at INTEGER NOT NULL
) STRICT;
CREATE INDEX review_claims_username ON review_claims (username);
