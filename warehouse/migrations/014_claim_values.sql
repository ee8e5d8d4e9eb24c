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

CREATE OR REPLACE VIEW claim_checks AS
SELECT record_id, claim_id, source_id, snapshot_id, checked_at, outcome, found_text, found_values,
       closest_text, closest_score, found_status
FROM store.current_checks;

CREATE VIEW claim_values AS
SELECT record_id, claim_id, source_id, value, unit, currency, status, text, first_seen_at,
       last_seen_at, current
FROM store.claim_values
ORDER BY record_id, claim_id, source_id, value_id;

CREATE OR REPLACE VIEW claim_status AS
SELECT c.record_id, c.claim_id, c.quote, c.status, g.grade, g.checked_at,
       g.confirming_sources, g.found_values, k.condition, k.detail AS condition_detail
FROM store.claims c
JOIN store.claim_grades g USING (record_id, claim_id)
LEFT JOIN store.claim_conditions k USING (record_id, claim_id)
ORDER BY c.record_id, c.position;

CREATE OR REPLACE VIEW record_status AS
WITH worst AS (
    SELECT record_id,
           CASE WHEN bool_or(condition = 'fail') THEN 'fail'
                WHEN bool_or(condition = 'warn') THEN 'warn'
                ELSE 'pass' END AS conditions
    FROM store.claim_conditions GROUP BY record_id
)
SELECT r.record_id, r.title, g.grade, g.sources_confirming, g.checked_at, g.stale_on,
       freshness_of(g.checked_at, g.stale_on) AS freshness, g.via, w.conditions
FROM store.records r
JOIN store.record_grades g USING (record_id)
LEFT JOIN worst w USING (record_id)
ORDER BY r.position;
