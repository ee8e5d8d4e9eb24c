-- One row per record after a refresh: grade, freshness and what this run's fetches found.
WITH last AS (
    SELECT record_id, source_id, arg_max(outcome, fetch_id) AS outcome
    FROM store.fetches WHERE run_id = $run_id GROUP BY ALL
)
SELECT r.record_id, r.grade, r.freshness,
       count(l.source_id) FILTER (WHERE l.outcome IN ('ok', 'not_modified')) AS fetched,
       count(l.source_id) FILTER (WHERE l.outcome NOT IN ('ok', 'not_modified')) AS failed,
       r.sources_confirming, r.stale_on
FROM record_status r LEFT JOIN last l USING (record_id)
GROUP BY ALL ORDER BY r.record_id;
