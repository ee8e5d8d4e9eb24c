-- 014: statuses and figures over time, and what must hold of them.
-- A claim's watched figure (`figure: N`) and its condition (`expect:`, as JSON) are kept
-- with the catalog; a check keeps the status a status claim's page states and the claim's
-- value on its page; every distinct value each source has shown for a claim is kept in
-- store.claim_values (one row per run of the same value), and each claim's condition
-- after the last grading in store.claim_conditions.
ALTER TABLE store.claims ADD COLUMN figure INTEGER;
ALTER TABLE store.claims ADD COLUMN expect VARCHAR;

-- The rules a check was made by: checks made before this migration carry no value and
-- no status; they count as they are until the next refresh makes them again.
ALTER TABLE store.checks ADD COLUMN rules INTEGER;
ALTER TABLE store.checks ADD COLUMN claim_status VARCHAR;   -- the claim's `status:` checked for
ALTER TABLE store.checks ADD COLUMN figure INTEGER;         -- the claim's `figure:` read
ALTER TABLE store.checks ADD COLUMN found_status VARCHAR;
ALTER TABLE store.checks ADD COLUMN value DOUBLE;
ALTER TABLE store.checks ADD COLUMN unit VARCHAR;
ALTER TABLE store.checks ADD COLUMN currency VARCHAR;
ALTER TABLE store.checks ADD COLUMN value_status VARCHAR;
ALTER TABLE store.checks ADD COLUMN value_text VARCHAR;

ALTER TABLE store.current_checks ADD COLUMN found_status VARCHAR;
ALTER TABLE store.current_checks ADD COLUMN value DOUBLE;
ALTER TABLE store.current_checks ADD COLUMN unit VARCHAR;
ALTER TABLE store.current_checks ADD COLUMN currency VARCHAR;
ALTER TABLE store.current_checks ADD COLUMN value_status VARCHAR;
ALTER TABLE store.current_checks ADD COLUMN value_text VARCHAR;
ALTER TABLE store.current_checks ADD COLUMN fetched_at TIMESTAMPTZ;  -- the snapshot's

CREATE SEQUENCE IF NOT EXISTS store.value_ids START 1;
CREATE TABLE store.claim_values (
    value_id BIGINT NOT NULL,          -- oldest first
    record_id VARCHAR NOT NULL,
    claim_id VARCHAR NOT NULL,
    source_id VARCHAR NOT NULL,
    value DOUBLE,
    unit VARCHAR,
    currency VARCHAR,
    status VARCHAR,
    text VARCHAR,
    first_seen_at TIMESTAMPTZ NOT NULL,
    last_seen_at TIMESTAMPTZ NOT NULL,
    current BOOLEAN NOT NULL
);

CREATE TABLE store.claim_conditions (
    record_id VARCHAR NOT NULL,
    claim_id VARCHAR NOT NULL,
    condition VARCHAR NOT NULL,        -- pass | warn | fail
    detail VARCHAR
);
