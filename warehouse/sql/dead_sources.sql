-- Sources found dead (source_health.dead_since) with no `dead:` message raised since:
-- each death is said once.
SELECT h.record_id, h.source_id, h.url, h.dead_since,
       coalesce(h.failing_since, h.dead_since) AS failing_since,  -- its streak's first failure
       h.last_outcome, h.last_http_status, h.consecutive_failures, r.config_file
FROM store.source_health_base h
LEFT JOIN store.records r USING (record_id)
WHERE h.dead_since IS NOT NULL
  AND NOT EXISTS (
      SELECT 1 FROM store.messages n
      WHERE n.kind = 'dead' AND n.record_id = h.record_id AND n.source_id = h.source_id
        AND n.raised_at >= h.dead_since)
ORDER BY h.record_id, h.position;
