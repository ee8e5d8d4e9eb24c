SELECT record_id, source_id, role, last_outcome, last_http_status, last_ok_at,
       consecutive_failures, reachable, needs_review, url
FROM source_health;
