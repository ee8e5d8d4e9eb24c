-- When each source is next due for a refresh, and why.
CREATE VIEW store.source_due AS
WITH base AS (
    SELECT h.record_id, h.source_id, h.url, h.last_attempt_at, h.last_ok_at,
           h.consecutive_failures, h.reachable, r.window_s,
           store.change_rate(c.intervals, c.changes, c.span_days) AS change_rate,
           coalesce(p.interval_s, 86400) AS interval_s, coalesce(p.margin_s, 86400) AS margin_s,
           coalesce(p.change_threshold, 0.5) AS threshold,
           -- learning: no change seen (or too short a watch to say), and not yet watched
           -- unchanged for a whole window
           (coalesce(c.changes, 0) = 0 OR coalesce(c.span_days, 0) < 1)
               AND coalesce(c.span_days, 0) < r.window_s / 86400 AS learning,
           c.span_days,
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
SELECT record_id, source_id, change_rate, retry_due, stale_due, change_due, learn_due,
       claims_changed,
       CASE WHEN last_attempt_at IS NULL THEN NULL  -- never fetched: due at once
            WHEN NOT reachable THEN retry_due
            WHEN claims_changed THEN last_attempt_at  -- due since: a quote to check
            ELSE least(stale_due, change_due, learn_due) END AS next_due
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
           END AS change_due,
           -- a new source is revisited a day after its first fetch, then as long after
           -- each fetch as it has been watched (days 1, 2, 4, 8, ...), until it is learned
           CASE WHEN learning
                THEN last_ok_at + to_seconds(86400 * greatest(1, coalesce(span_days, 0)))
           END AS learn_due
    FROM base
);
