-- Where each source's evidence comes from (origin fields, as data catalogs give them): its
-- URL and role, when its newest page was accessed, the page's own dates, and the newest
-- archived copy of its URL.
SELECT h.source_id, h.url, h.role, c.checked_at AS accessed_at, p.published_on,
       p.modified_on, a.archived_url, a.archived_at
FROM store.sources h  -- (not source_health: its due times are not needed here)
LEFT JOIN store.current_snapshots c USING (record_id, source_id)
LEFT JOIN store.snapshots s ON s.snapshot_id = c.snapshot_id
LEFT JOIN store.pages p ON p.content_hash = s.content_hash
LEFT JOIN (
    SELECT url, arg_max(archived_url, archived_at) AS archived_url, max(archived_at) AS archived_at
    FROM store.captures WHERE state = 'archived' GROUP BY url
) a ON a.url = h.url  -- (records sharing a URL share its copies)
WHERE h.record_id = $record_id
ORDER BY h.position;
