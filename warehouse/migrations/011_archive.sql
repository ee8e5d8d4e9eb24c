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

CREATE OR REPLACE VIEW captures AS
SELECT capture_id, record_id, source_id, url, snapshot_id, reason, queued_at, state,
       attempts, sent_at, next_at, archived_url, archived_at, last_error
FROM store.captures;

-- A snapshot's archived copy: the newest capture of its URL with its content.
CREATE OR REPLACE VIEW snapshots AS
SELECT s.snapshot_id, s.source_id, s.url, s.fetched_at, s.content_hash, p.title, p.text, p.bytes,
       s.via, s.record_id, s.render,
       EXISTS (SELECT 1 FROM store.bodies b WHERE b.content_hash = s.content_hash) AS html_kept,
       p.published_on, p.modified_on, a.archived_url, a.archived_at
FROM store.snapshots s JOIN store.pages p USING (content_hash)
LEFT JOIN (
    SELECT url, content_hash, arg_max(archived_url, archived_at) AS archived_url,
           max(archived_at) AS archived_at
    FROM store.captures WHERE state = 'archived' GROUP BY url, content_hash
) a ON a.url = s.url AND a.content_hash = s.content_hash;
