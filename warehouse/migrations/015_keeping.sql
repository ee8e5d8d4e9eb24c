-- 015: keeping the catalog. What a person settles and when: the file each record was
-- read from as last stored (an edit on disk since then is seen), review_by dates, the
-- review alerts raised for them (once each), and each claim rewritten by
-- `evidence update` (the trace of who took which wording from which page).
CREATE TABLE store.record_files (
    record_id VARCHAR NOT NULL,
    config_file VARCHAR NOT NULL,
    digest VARCHAR NOT NULL            -- blake2b of the file's bytes as last stored
);

CREATE TABLE store.review_dates (
    record_id VARCHAR NOT NULL,
    claim_id VARCHAR,                  -- NULL: the record's own review_by
    review_by DATE NOT NULL
);

CREATE TABLE store.review_alerts (
    record_id VARCHAR NOT NULL,
    claim_id VARCHAR,
    review_by DATE NOT NULL,
    raised_at TIMESTAMPTZ NOT NULL
);

CREATE TABLE store.claim_updates (
    record_id VARCHAR NOT NULL,
    claim_id VARCHAR NOT NULL,
    source_id VARCHAR NOT NULL,        -- the page the wording was taken from
    snapshot_id BIGINT,
    quote_before VARCHAR NOT NULL,
    quote_after VARCHAR NOT NULL,
    status_before VARCHAR,
    status_after VARCHAR,
    updated_at TIMESTAMPTZ NOT NULL
);
