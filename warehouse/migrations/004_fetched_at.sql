-- 004: one name for one time. The time a fetch's content is evidence for (an archived
-- copy's capture time, else when the fetch started) is `fetched_at`, as in `snapshots`.
ALTER TABLE store.fetches RENAME COLUMN evidence_at TO fetched_at;

-- The newest successful snapshot of every configured source, and the newest time a
-- successful fetch (a 200, or a 304 to a conditional request) fetched it; with
-- include_held false, snapshots held for review do not count.
CREATE OR REPLACE MACRO store.newest_snapshots(include_held) AS TABLE
WITH ok AS (
    SELECT f.record_id, f.source_id, f.snapshot_id, f.fetched_at
    FROM store.fetches f JOIN store.sources s USING (record_id, source_id, url)
    WHERE f.outcome IN ('ok', 'not_modified') AND f.snapshot_id IS NOT NULL
      AND (include_held OR f.snapshot_id NOT IN (SELECT snapshot_id FROM store.held_snapshots))
), newest AS (
    SELECT record_id, source_id, arg_max(snapshot_id, fetched_at) AS snapshot_id
    FROM ok GROUP BY record_id, source_id
)
SELECT n.record_id, n.source_id, n.snapshot_id, max(ok.fetched_at) AS checked_at
FROM newest n JOIN ok USING (record_id, source_id, snapshot_id)
GROUP BY ALL;

-- A database made before 002 took its final form (release c63f24a) holds these two views
-- written out with evidence_at: rebuild them on the macro (for the others, a no-op).
CREATE OR REPLACE VIEW store.latest_snapshots AS SELECT * FROM store.newest_snapshots(true);
CREATE OR REPLACE VIEW store.current_snapshots AS SELECT * FROM store.newest_snapshots(false);
