-- 006: a page fetched over HTTP that is only an application shell (no text until
-- JavaScript runs) is flagged: its source needs `render: browser`.
ALTER TABLE store.pages ADD COLUMN app_shell BOOLEAN DEFAULT false;
