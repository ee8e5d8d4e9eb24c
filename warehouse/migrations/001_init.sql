-- 001: tables in schema `store` (internal), the stable views in `main`.
CREATE SEQUENCE IF NOT EXISTS store.fetch_ids START 1;
CREATE SEQUENCE IF NOT EXISTS store.snapshot_ids START 1;
CREATE SEQUENCE IF NOT EXISTS store.alert_ids START 1;

-- The catalog as last loaded from config/ (replaced by every refresh).
CREATE TABLE store.records (
    record_id VARCHAR NOT NULL,
    title VARCHAR NOT NULL,
    window_s BIGINT NOT NULL,
    fields STRUCT(name VARCHAR, value VARCHAR)[],
    config_file VARCHAR,
    position INTEGER
);
CREATE TABLE store.sources (
    record_id VARCHAR NOT NULL,
    source_id VARCHAR NOT NULL,
    url VARCHAR NOT NULL,
    role VARCHAR NOT NULL,
    position INTEGER
);
CREATE TABLE store.claims (
    record_id VARCHAR NOT NULL,
    claim_id VARCHAR NOT NULL,
    quote VARCHAR NOT NULL,
    status VARCHAR,
    source_ids VARCHAR[],          -- NULL: every source of the record
    position INTEGER
);

-- Each distinct page body once: compressed bytes plus its extracted text.
CREATE TABLE store.pages (
    content_hash VARCHAR PRIMARY KEY,   -- sha256 of the raw body
    body BLOB NOT NULL,                 -- zlib-compressed raw body
    bytes BIGINT NOT NULL,              -- raw body size
    content_type VARCHAR,
    encoding VARCHAR,
    title VARCHAR,
    text VARCHAR,
    extractor_version VARCHAR NOT NULL
);
CREATE TABLE store.page_numbers (
    content_hash VARCHAR NOT NULL,
    position INTEGER NOT NULL,
    kind VARCHAR NOT NULL,
    value DOUBLE,
    value_end DOUBLE,
    unit VARCHAR,
    currency VARCHAR,
    qualifier VARCHAR,
    date_from DATE,
    date_to DATE,
    raw VARCHAR,
    sentence VARCHAR
);
CREATE TABLE store.page_statuses (
    content_hash VARCHAR NOT NULL,
    position INTEGER NOT NULL,
    status VARCHAR NOT NULL,
    phrase VARCHAR,
    sentence VARCHAR
);

-- A snapshot per source per change of content.
CREATE TABLE store.snapshots (
    snapshot_id BIGINT NOT NULL,
    record_id VARCHAR NOT NULL,
    source_id VARCHAR NOT NULL,
    url VARCHAR NOT NULL,
    fetched_at TIMESTAMPTZ NOT NULL,    -- for an archived copy: the archive's capture time
    content_hash VARCHAR NOT NULL,
    via VARCHAR NOT NULL                -- live | archived
);

-- Every attempt, retried or not.
CREATE TABLE store.fetches (
    fetch_id BIGINT NOT NULL,
    run_id VARCHAR NOT NULL,
    record_id VARCHAR NOT NULL,
    source_id VARCHAR NOT NULL,
    url VARCHAR NOT NULL,
    started_at TIMESTAMPTZ NOT NULL,
    elapsed_ms INTEGER,
    outcome VARCHAR NOT NULL,
    http_status INTEGER,
    error VARCHAR,
    snapshot_id BIGINT,
    via VARCHAR NOT NULL,               -- live | archived
    evidence_at TIMESTAMPTZ,            -- the time the content is vouched for
    etag VARCHAR,
    last_modified VARCHAR,
    final_url VARCHAR
);

-- Claim checks, once per (claim quote, snapshot).
CREATE TABLE store.checks (
    record_id VARCHAR NOT NULL,
    claim_id VARCHAR NOT NULL,
    source_id VARCHAR NOT NULL,
    snapshot_id BIGINT NOT NULL,
    quote VARCHAR NOT NULL,
    outcome VARCHAR NOT NULL,
    found_text VARCHAR,
    found_values DOUBLE[]
);

-- Written by warehouse/sql/grade.sql, all records at once.
CREATE TABLE store.current_checks (
    record_id VARCHAR, claim_id VARCHAR, source_id VARCHAR, role VARCHAR,
    snapshot_id BIGINT, checked_at TIMESTAMPTZ, via VARCHAR,
    outcome VARCHAR, found_text VARCHAR, found_values DOUBLE[]
);
CREATE TABLE store.claim_grades (
    record_id VARCHAR, claim_id VARCHAR, grade VARCHAR, checked_at TIMESTAMPTZ, via VARCHAR,
    confirming_sources VARCHAR[], found_values DOUBLE[]
);
CREATE TABLE store.record_grades (
    record_id VARCHAR, grade VARCHAR, sources_confirming INTEGER,
    checked_at TIMESTAMPTZ, stale_on TIMESTAMPTZ, via VARCHAR
);
CREATE TABLE store.grade_history (
    record_id VARCHAR NOT NULL,
    grade VARCHAR NOT NULL,
    freshness VARCHAR NOT NULL,
    changed_at TIMESTAMPTZ NOT NULL
);
CREATE TABLE store.alerts (
    alert_id BIGINT NOT NULL,
    record_id VARCHAR NOT NULL,
    source_id VARCHAR NOT NULL,
    url VARCHAR NOT NULL,
    opened_at TIMESTAMPTZ NOT NULL,
    closed_at TIMESTAMPTZ,
    failures INTEGER NOT NULL,
    last_error VARCHAR,
    last_notified_at TIMESTAMPTZ
);

-- The newest successful snapshot of every configured source, and the newest time a
-- successful fetch (a 200, or a 304 to a conditional request) vouched for it.
CREATE VIEW store.current_snapshots AS
WITH ok AS (
    SELECT f.record_id, f.source_id, f.snapshot_id, f.evidence_at
    FROM store.fetches f JOIN store.sources s USING (record_id, source_id, url)
    WHERE f.outcome IN ('ok', 'not_modified') AND f.snapshot_id IS NOT NULL
), newest AS (
    SELECT record_id, source_id, arg_max(snapshot_id, evidence_at) AS snapshot_id
    FROM ok GROUP BY record_id, source_id
)
SELECT n.record_id, n.source_id, n.snapshot_id, max(ok.evidence_at) AS checked_at
FROM newest n JOIN ok USING (record_id, source_id, snapshot_id)
GROUP BY ALL;

-- ---------------------------------------------------------------- views
-- `now` for freshness: the EVIDENCE_NOW of the connection, else the clock.
CREATE MACRO evidence_now() AS coalesce(getvariable('evidence_now')::TIMESTAMPTZ, now());
CREATE MACRO freshness_of(checked_at, stale_on) AS
    CASE WHEN checked_at IS NULL THEN 'unchecked'
         WHEN evidence_now() < stale_on THEN 'fresh'
         ELSE 'stale' END;

CREATE VIEW record_status AS
SELECT r.record_id, r.title, g.grade, g.sources_confirming, g.checked_at, g.stale_on,
       freshness_of(g.checked_at, g.stale_on) AS freshness, g.via
FROM store.records r JOIN store.record_grades g USING (record_id)
ORDER BY r.position;

CREATE VIEW claim_status AS
SELECT c.record_id, c.claim_id, c.quote, c.status, g.grade, g.checked_at,
       g.confirming_sources, g.found_values
FROM store.claims c JOIN store.claim_grades g USING (record_id, claim_id)
ORDER BY c.record_id, c.position;

CREATE VIEW claim_checks AS
SELECT record_id, claim_id, source_id, snapshot_id, checked_at, outcome, found_text, found_values
FROM store.current_checks;

CREATE VIEW fetches AS
SELECT fetch_id, record_id, source_id, url, started_at, elapsed_ms, outcome, http_status, error,
       snapshot_id, via, run_id
FROM store.fetches;

CREATE VIEW snapshots AS
SELECT s.snapshot_id, s.source_id, s.url, s.fetched_at, s.content_hash, p.title, p.text, p.bytes,
       s.via, s.record_id
FROM store.snapshots s JOIN store.pages p USING (content_hash);

CREATE VIEW quoted_numbers AS
SELECT s.snapshot_id, s.source_id, n.kind, n.value, n.value_end, n.unit, n.currency, n.qualifier,
       n.date_from, n.date_to, n.raw, n.sentence, s.record_id
FROM store.snapshots s JOIN store.page_numbers n USING (content_hash);

CREATE VIEW statuses AS
SELECT s.snapshot_id, s.source_id, t.status, t.phrase, t.sentence, s.record_id
FROM store.snapshots s JOIN store.page_statuses t USING (content_hash);

CREATE VIEW source_health AS
WITH live AS (
    SELECT f.*, f.outcome IN ('ok', 'not_modified') AS ok
    FROM store.fetches f JOIN store.sources s USING (record_id, source_id, url)
    WHERE f.via = 'live'
), last_ok AS (
    SELECT record_id, source_id, max(started_at) AS last_ok_at, max(fetch_id) AS last_ok_fetch
    FROM live WHERE ok GROUP BY ALL
), summary AS (
    SELECT l.record_id, l.source_id,
           max(l.started_at) AS last_attempt_at,
           arg_max(l.outcome, l.fetch_id) AS last_outcome,
           arg_max_null(l.http_status, l.fetch_id) AS last_http_status,
           count(DISTINCT l.run_id) FILTER (
               WHERE NOT l.ok AND l.fetch_id > coalesce(o.last_ok_fetch, -1)
           ) AS consecutive_failures
    FROM live l LEFT JOIN last_ok o USING (record_id, source_id)
    GROUP BY ALL
)
SELECT s.record_id, s.source_id, s.url, s.role, m.last_attempt_at, o.last_ok_at, m.last_outcome,
       m.last_http_status, coalesce(m.consecutive_failures, 0)::INTEGER AS consecutive_failures,
       coalesce(m.last_outcome IN ('ok', 'not_modified'), false) AS reachable
FROM store.sources s
LEFT JOIN summary m USING (record_id, source_id)
LEFT JOIN last_ok o USING (record_id, source_id)
ORDER BY s.record_id, s.position;

CREATE VIEW alerts AS
SELECT alert_id, record_id, source_id, url, opened_at, closed_at, failures, last_error,
       last_notified_at
FROM store.alerts;

CREATE VIEW grade_history AS
SELECT record_id, grade, freshness, changed_at FROM store.grade_history;
