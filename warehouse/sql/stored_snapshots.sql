-- The newest successful snapshot of each (record, source, url) ever fetched, not held for
-- review, with its page and when its source died there: what `evidence check` and
-- `evidence plan` read claims against.
WITH ok AS (
    SELECT f.record_id, f.source_id, f.url, f.snapshot_id, f.fetched_at, f.run_id
    FROM store.fetches f
    WHERE f.outcome IN ('ok', 'not_modified') AND f.snapshot_id IS NOT NULL
      AND f.snapshot_id NOT IN (SELECT snapshot_id FROM store.held_snapshots)
), newest AS (
    SELECT record_id, source_id, url, arg_max(snapshot_id, fetched_at) AS snapshot_id,
           max(fetched_at) AS fetched_at, arg_max(run_id, fetched_at) AS run_id
    FROM ok GROUP BY ALL
)
SELECT n.record_id, n.source_id, n.url, n.snapshot_id, n.fetched_at, sn.content_hash, n.run_id,
       sn.via, h.dead_since
FROM newest n JOIN store.snapshots sn USING (snapshot_id)
LEFT JOIN store.source_health_base h      -- the source died at this URL: its page no longer counts
  ON h.record_id = n.record_id AND h.source_id = n.source_id AND h.url = n.url
ORDER BY n.fetched_at;
