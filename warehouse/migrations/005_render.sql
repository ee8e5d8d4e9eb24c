-- 005: how a page was loaded: `http` (httpx) or `browser` (rendered in headless Chromium).
ALTER TABLE store.fetches ADD COLUMN render VARCHAR DEFAULT 'http';
ALTER TABLE store.snapshots ADD COLUMN render VARCHAR DEFAULT 'http';
UPDATE store.fetches SET render = 'http' WHERE render IS NULL;
UPDATE store.snapshots SET render = 'http' WHERE render IS NULL;

CREATE OR REPLACE VIEW fetches AS
SELECT fetch_id, record_id, source_id, url, started_at, elapsed_ms, outcome, http_status, error,
       snapshot_id, via, run_id, render
FROM store.fetches;

CREATE OR REPLACE VIEW snapshots AS
SELECT s.snapshot_id, s.source_id, s.url, s.fetched_at, s.content_hash, p.title, p.text, p.bytes,
       s.via, s.record_id, s.render
FROM store.snapshots s JOIN store.pages p USING (content_hash);
