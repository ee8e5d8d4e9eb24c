-- 005: how a page was loaded: `http` (httpx) or `browser` (rendered in headless Chromium).
ALTER TABLE store.fetches ADD COLUMN render VARCHAR DEFAULT 'http';
ALTER TABLE store.snapshots ADD COLUMN render VARCHAR DEFAULT 'http';
UPDATE store.fetches SET render = 'http' WHERE render IS NULL;
UPDATE store.snapshots SET render = 'http' WHERE render IS NULL;
