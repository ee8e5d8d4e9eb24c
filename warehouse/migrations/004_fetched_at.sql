-- 004: one name for one time. The time a fetch's content is evidence for (an archived
-- copy's capture time, else when the fetch started) is `fetched_at`, as in `snapshots`.
ALTER TABLE store.fetches RENAME COLUMN evidence_at TO fetched_at;
