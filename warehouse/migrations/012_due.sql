-- 012: refreshing what is due. The schedule a refresh plans by (written by each one);
-- each source's change rate, estimated from its own fetches and snapshots; and when it is
-- next due, in `source_health`.
CREATE TABLE store.schedule (
    interval_s DOUBLE NOT NULL,        -- to the next scheduled run, from the last refresh (schedule.cron)
    margin_s DOUBLE NOT NULL,          -- schedule.margin
    change_threshold DOUBLE NOT NULL   -- schedule.change_threshold
);

-- Per source: its successful live fetches, how many intervals between them, in how many
-- its page was another than at the fetch before, over how many days.
CREATE OR REPLACE VIEW store.source_changes AS
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

-- Changes a day, as Cho and Garcia-Molina estimate a Poisson rate from n accesses I days
-- apart that saw X changes ("Estimating frequency of change", ACM TOIT 2003): changes
-- hidden between two fetches are counted in, and a page that changed at every fetch
-- still gets a finite rate.
CREATE OR REPLACE MACRO store.change_rate(intervals, changes, span_days) AS
    CASE WHEN intervals >= 1 AND span_days > 0
         THEN greatest(0.0,
                       -ln((intervals - changes + 0.5) / (intervals + 0.5)) / (span_days / intervals))
    END;

-- source_health as 006 left it, under it: what the due rule reads.
CREATE OR REPLACE VIEW store.source_health_base AS
WITH live AS (
    SELECT f.*, f.outcome IN ('ok', 'not_modified') AS ok
    FROM store.fetches f JOIN store.sources s USING (record_id, source_id, url)
    WHERE f.via = 'live'
), last_ok AS (
    SELECT record_id, source_id, max(started_at) AS last_ok_at, max(fetch_id) AS last_ok_fetch
    FROM live WHERE ok GROUP BY ALL
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
LEFT JOIN store.latest_snapshots l USING (record_id, source_id)
LEFT JOIN store.held_snapshots h ON h.snapshot_id = l.snapshot_id
LEFT JOIN store.snapshots ls ON ls.snapshot_id = l.snapshot_id
LEFT JOIN store.pages lp ON lp.content_hash = ls.content_hash;

CREATE OR REPLACE VIEW store.source_due AS
WITH base AS (
    SELECT h.record_id, h.source_id, h.url, h.last_attempt_at, h.last_ok_at,
           h.consecutive_failures, h.reachable, r.window_s,
           store.change_rate(c.intervals, c.changes, c.span_days) AS change_rate,
           coalesce(p.interval_s, 86400) AS interval_s, coalesce(p.margin_s, 86400) AS margin_s,
           coalesce(p.change_threshold, 0.5) AS threshold,
           -- one of its claims has no check on its current page (a quote changed)
           EXISTS (
               SELECT 1 FROM store.claims k
               WHERE k.record_id = h.record_id
                 AND (k.source_ids IS NULL OR list_contains(k.source_ids, h.source_id))
                 AND NOT EXISTS (
                     SELECT 1 FROM store.checks c JOIN store.latest_snapshots l
                       ON l.record_id = c.record_id AND l.source_id = c.source_id
                      AND l.snapshot_id = c.snapshot_id
                     WHERE c.record_id = k.record_id AND c.source_id = h.source_id
                       AND c.quote = k.quote)
           ) AS claims_changed
    FROM store.source_health_base h
    JOIN store.records r USING (record_id)
    LEFT JOIN store.source_changes c USING (record_id, source_id)
    LEFT JOIN (SELECT * FROM store.schedule LIMIT 1) p ON true
)
SELECT record_id, source_id, change_rate, retry_due, stale_due, change_due, claims_changed,
       CASE WHEN last_attempt_at IS NULL THEN NULL  -- never fetched: due at once
            WHEN NOT reachable THEN retry_due
            WHEN claims_changed THEN last_attempt_at  -- due since: a quote to check
            ELSE least(stale_due, change_due) END AS next_due
FROM (
    SELECT *,
           -- failing: tried again 1, 2, 4 ... runs after the last attempt, a week at most
           last_attempt_at + to_seconds(
               least(interval_s * pow(2, least(consecutive_failures, 12) - 1), 7 * 86400)
           ) AS retry_due,
           -- before the next run plus the margin would find it past its window
           last_ok_at + to_seconds(window_s - interval_s - margin_s) AS stale_due,
           -- once it has more likely changed than not (change_threshold)
           CASE WHEN change_rate > 0
                THEN last_ok_at + to_seconds(least(
                    -ln(1 - least(threshold, 0.999999)) / change_rate * 86400, 3650 * 86400))
           END AS change_due
    FROM base
);

CREATE OR REPLACE VIEW source_health AS
SELECT b.* EXCLUDE (position), d.next_due, d.change_rate
FROM store.source_health_base b LEFT JOIN store.source_due d USING (record_id, source_id)
ORDER BY b.record_id, b.position;
