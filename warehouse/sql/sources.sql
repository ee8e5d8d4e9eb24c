-- Source health, one row per source; with $failing, those whose last attempt failed. Its
-- `archive` is where its newest capture stands (archive.save): queued, sent and waiting
-- on the archive, retried at a time, or archived on a day.
SELECT h.record_id, h.source_id, h.role, h.last_outcome, h.last_http_status, h.last_ok_at,
       h.consecutive_failures, h.reachable, h.needs_review,
       CASE WHEN c.state IS NULL THEN NULL
            WHEN c.state = 'archived' THEN 'archived ' || strftime(c.archived_at, '%Y-%m-%d')
            WHEN c.state = 'pending' THEN 'sent, waiting on the archive'
            WHEN c.next_at > evidence_now()
                THEN 'queued, sent from ' || strftime(c.next_at, '%Y-%m-%d %H:%M')
            ELSE 'queued'
       END AS archive,
       h.url
FROM source_health h
LEFT JOIN (
    SELECT url, arg_max(state, capture_id) AS state,
           arg_max(archived_at, capture_id) AS archived_at, arg_max(next_at, capture_id) AS next_at
    FROM store.captures GROUP BY url
) c ON c.url = h.url  -- (one capture serves every source of a URL)
WHERE NOT $failing
   OR (h.last_outcome IS NOT NULL AND h.last_outcome NOT IN ('ok', 'not_modified'));
