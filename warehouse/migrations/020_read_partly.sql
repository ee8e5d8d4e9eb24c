-- 020: a page read only in part (its reading bounded by what it holds: more status words
-- or figures than a page of prose has) says so, in words: what was left unread.
ALTER TABLE store.pages ADD COLUMN read_partly VARCHAR;
