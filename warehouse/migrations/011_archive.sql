-- 011: captures of the pages claims rest on, sent to a web archive (archive.save). The
-- queue is a table, so that a crash loses none, the rate holds across runs and a capture
-- the archive answered is never sent again; `snapshots` shows the archived copy.
CREATE TABLE store.captures (
    capture_id BIGINT NOT NULL,        -- in the order captures were queued
    record_id VARCHAR NOT NULL,
    source_id VARCHAR NOT NULL,
    url VARCHAR NOT NULL,
    snapshot_id BIGINT NOT NULL,       -- the page as it was when queued
    content_hash VARCHAR NOT NULL,
    reason VARCHAR NOT NULL,           -- confirmed (a claim first confirmed) | changed
    queued_at TIMESTAMPTZ NOT NULL,
    state VARCHAR NOT NULL,            -- queued | sending | pending | archived
    attempts INTEGER NOT NULL DEFAULT 0,
    sent_at TIMESTAMPTZ,               -- the last time it was sent
    next_at TIMESTAMPTZ,               -- not sent or asked after before this (back-off)
    job_id VARCHAR,                    -- the archive's answer, asked after until done
    archived_url VARCHAR,
    archived_at TIMESTAMPTZ,           -- the archive's capture time
    last_error VARCHAR
);
