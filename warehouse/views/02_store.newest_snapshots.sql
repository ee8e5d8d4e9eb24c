-- The newest successful snapshot of every configured source, and the newest time a
-- successful fetch (a 200, or a 304 to a conditional request) fetched it, with that
-- fetch's run; with include_held false, snapshots held for review do not count.
CREATE MACRO store.newest_snapshots(include_held) AS TABLE
WITH ok AS (
    SELECT f.record_id, f.source_id, f.snapshot_id, f.fetched_at, f.run_id
    FROM store.fetches f JOIN store.sources s USING (record_id, source_id, url)
    WHERE f.outcome IN ('ok', 'not_modified') AND f.snapshot_id IS NOT NULL
      AND (include_held OR f.snapshot_id NOT IN (SELECT snapshot_id FROM store.held_snapshots))
), newest AS (
    SELECT record_id, source_id, arg_max(snapshot_id, fetched_at) AS snapshot_id
    FROM ok GROUP BY record_id, source_id
)
SELECT n.record_id, n.source_id, n.snapshot_id, max(ok.fetched_at) AS checked_at,
       arg_max(ok.run_id, ok.fetched_at) AS run_id
FROM newest n JOIN ok USING (record_id, source_id, snapshot_id)
GROUP BY ALL;
