-- Per source: its successful live fetches, how many intervals between them, in how many
-- its page was another than at the fetch before, over how many days.
CREATE VIEW store.source_changes AS
WITH ok AS (
    SELECT f.record_id, f.source_id, f.started_at, f.snapshot_id,
           lag(f.snapshot_id) OVER (
               PARTITION BY f.record_id, f.source_id ORDER BY f.started_at, f.fetch_id
           ) AS before
    FROM store.fetches f JOIN store.sources s USING (record_id, source_id, url)
    WHERE f.via = 'live' AND f.outcome IN ('ok', 'not_modified') AND f.snapshot_id IS NOT NULL
)
SELECT record_id, source_id, count(*) - 1 AS intervals,
       count(*) FILTER (WHERE before IS NOT NULL AND snapshot_id <> before) AS changes,
       epoch(max(started_at) - min(started_at)) / 86400.0 AS span_days
FROM ok GROUP BY record_id, source_id;
