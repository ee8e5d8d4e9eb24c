-- 007: a snapshot is a distinct main text of a source, and raw pages are kept only where
-- they may be read again (history.keep_pages, and what current claim checks rest on).
-- `text_hash` identifies a page's reading (title and main text); `fingerprint` lets a
-- refresh see that a page which changed bytes cannot have changed that reading
-- (extractors/fingerprint.py).
ALTER TABLE store.pages ALTER COLUMN body DROP NOT NULL;
ALTER TABLE store.pages ADD COLUMN text_hash VARCHAR;
ALTER TABLE store.pages ADD COLUMN fingerprint BLOB;
UPDATE store.pages SET text_hash = sha256(coalesce(title, '') || chr(31) || coalesce(text, ''));

CREATE OR REPLACE VIEW snapshots AS
SELECT s.snapshot_id, s.source_id, s.url, s.fetched_at, s.content_hash, p.title, p.text, p.bytes,
       s.via, s.record_id, s.render, p.body IS NOT NULL AS html_kept
FROM store.snapshots s JOIN store.pages p USING (content_hash);
