-- 007: a snapshot is a distinct main text of a source, and raw pages are kept only where
-- they may be read again (history.keep_pages, and what current claim checks rest on).
-- Raw pages move to a table of their own: dropping one deletes a row, where clearing a
-- column of store.pages would rewrite every body stored beside it.
-- `text_hash` identifies a page's reading (title and main text); `fingerprint` lets a
-- refresh see that a page which changed bytes cannot read differently
-- (extractors/fingerprint.py).
CREATE TABLE store.bodies (
    content_hash VARCHAR NOT NULL,
    body BLOB NOT NULL                  -- the raw page, compressed (warehouse/bodies.py)
);
INSERT INTO store.bodies SELECT content_hash, body FROM store.pages;
ALTER TABLE store.pages DROP COLUMN body;
ALTER TABLE store.pages ADD COLUMN text_hash VARCHAR;
ALTER TABLE store.pages ADD COLUMN fingerprint BLOB;
UPDATE store.pages SET text_hash = sha256(coalesce(title, '') || chr(31) || coalesce(text, ''));
