-- 001: tables in schema `store` (internal). Migrations make no views: the stable views
-- in `main`, and those of `store` they read, are made from warehouse/views/ after them.
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

-- ---------------------------------------------------------------- macros
-- `now` for freshness: the EVIDENCE_NOW of the connection, else the clock.
CREATE MACRO evidence_now() AS coalesce(getvariable('evidence_now')::TIMESTAMPTZ, now());
CREATE MACRO freshness_of(checked_at, stale_on) AS
    CASE WHEN checked_at IS NULL THEN 'unchecked'
         WHEN evidence_now() < stale_on THEN 'fresh'
         ELSE 'stale' END;
