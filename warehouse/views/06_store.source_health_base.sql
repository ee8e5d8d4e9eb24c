-- Each source's health without the due rule: what the due rule reads, and source_health
-- with it.
CREATE VIEW store.source_health_base AS
WITH live AS (
    SELECT f.*, f.outcome IN ('ok', 'not_modified') AS ok
    FROM store.fetches f JOIN store.sources s USING (record_id, source_id, url)
    WHERE f.via = 'live'
), last_ok AS (
    SELECT record_id, source_id, max(started_at) AS last_ok_at, max(fetch_id) AS last_ok_fetch
    FROM live WHERE ok GROUP BY ALL
), failing AS (    -- live fetches since the last success, each permanent or not
    SELECT l.record_id, l.source_id, l.started_at,
           l.outcome IN ('soft_404', 'dns_error')
               OR (l.outcome = 'http_error' AND l.http_status IN (404, 410)) AS gone,
           row_number() OVER (PARTITION BY l.record_id, l.source_id ORDER BY l.fetch_id) AS n,
           min(l.started_at) OVER (PARTITION BY l.record_id, l.source_id) AS first_at
    FROM live l LEFT JOIN last_ok o USING (record_id, source_id)
    WHERE NOT l.ok AND l.fetch_id > coalesce(o.last_ok_fetch, -1)
), dead AS (       -- dead: every fetch since the last success failed for good, for
                   -- fetch.dead_after and three attempts at least; since the first that
                   -- met both
    SELECT f.record_id, f.source_id, min(f.started_at) AS failing_since,
           CASE WHEN bool_and(f.gone) THEN min(f.started_at) FILTER (
               WHERE f.n >= 3 AND f.started_at >= f.first_at + to_seconds(coalesce(
                   (SELECT max(dead_after_s) FROM store.schedule), 259200)::BIGINT))
           END AS dead_since
    FROM failing f GROUP BY ALL
), summary AS (
    SELECT l.record_id, l.source_id,
           max(l.started_at) AS last_attempt_at,
           arg_max(l.outcome, l.fetch_id) AS last_outcome,
           arg_max_null(l.http_status, l.fetch_id) AS last_http_status,
           count(DISTINCT l.run_id) FILTER (
               WHERE NOT l.ok AND l.fetch_id > coalesce(o.last_ok_fetch, -1)
           ) AS consecutive_failures
    FROM live l LEFT JOIN last_ok o USING (record_id, source_id)
    GROUP BY ALL
)
SELECT s.record_id, s.source_id, s.url, s.role, m.last_attempt_at, o.last_ok_at, m.last_outcome,
       m.last_http_status, coalesce(m.consecutive_failures, 0)::INTEGER AS consecutive_failures,
       coalesce(m.last_outcome IN ('ok', 'not_modified'), false) AS reachable,
       d.failing_since, d.dead_since,
       coalesce(
           h.reason,
           CASE WHEN ls.render = 'http' AND lp.app_shell
                THEN 'needs `render: browser`: over HTTP the page is an app shell with no text'
           END
       ) AS needs_review,
       coalesce(ls.render = 'http' AND lp.app_shell, false) AS needs_browser,
       s.position
FROM store.sources s
LEFT JOIN summary m USING (record_id, source_id)
LEFT JOIN last_ok o USING (record_id, source_id)
LEFT JOIN dead d USING (record_id, source_id)
LEFT JOIN store.latest_snapshots l USING (record_id, source_id)
LEFT JOIN store.held_snapshots h ON h.snapshot_id = l.snapshot_id
LEFT JOIN store.snapshots ls ON ls.snapshot_id = l.snapshot_id
LEFT JOIN store.pages lp ON lp.content_hash = ls.content_hash;
