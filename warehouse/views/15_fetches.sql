-- Every attempt, retried or not.
CREATE VIEW fetches AS
SELECT fetch_id, record_id, source_id, url, started_at, elapsed_ms, outcome, http_status, error,
       snapshot_id, via, run_id, render
FROM store.fetches;
