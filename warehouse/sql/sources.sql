-- Source health, one row per source; with $failing, those whose last attempt failed.
SELECT record_id, source_id, role, last_outcome, last_http_status, last_ok_at,
       consecutive_failures, reachable, needs_review, url
FROM source_health
WHERE NOT $failing OR (last_outcome IS NOT NULL AND last_outcome NOT IN ('ok', 'not_modified'));
