-- Every configured source with its failure streak and the error of its last live attempt.
SELECT h.record_id, h.source_id, h.url, h.consecutive_failures, h.reachable, h.last_outcome,
       (SELECT arg_max(f.error, f.fetch_id) FROM store.fetches f
        WHERE f.record_id = h.record_id AND f.source_id = h.source_id AND f.via = 'live') AS last_error,
       h.dead_since
FROM store.source_health_base h  -- (without the due rule: not needed here)
WHERE h.last_outcome IS NOT NULL;
