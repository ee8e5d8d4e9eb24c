-- 002: a primary page that suddenly loses most of its text, or every claim it confirmed,
-- is kept but held for review: it does not count as evidence until a person accepts it.
CREATE TABLE store.snapshot_reviews (
    snapshot_id BIGINT NOT NULL,
    record_id VARCHAR NOT NULL,
    source_id VARCHAR NOT NULL,
    reason VARCHAR,                 -- NULL: looked at and passed
    flagged_at TIMESTAMPTZ NOT NULL,
    accepted_at TIMESTAMPTZ
);
