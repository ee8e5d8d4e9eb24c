-- What `evidence alerts` lists: the open unreachable alerts first (each with its newest
-- message), then every other message the newest refresh run raised; with $everything,
-- every message kept, newest first. $kind and $since narrow either.
WITH newest_run AS (
    SELECT arg_max(run_id, run_number) AS run_id FROM store.runs
), open_alerts AS (
    SELECT a.record_id, a.source_id, a.opened_at, a.failures, a.last_error,
           (SELECT max(m.notification_id) FROM store.messages m
             WHERE m.kind = 'unreachable' AND m.record_id = a.record_id
               AND m.source_id = a.source_id AND m.raised_at >= a.opened_at) AS notification_id
    FROM store.alerts a WHERE a.closed_at IS NULL
), listed AS (
    SELECT 0 AS part, n.raised_at, n.kind, n.record_id, n.source_id, n.title, n.delivered_at,
           n.body, n.notification_id
    FROM notifications n WHERE $everything
    UNION ALL
    -- an open alert with no message kept (raised before every message was kept)
    SELECT 1, coalesce(n.raised_at, o.opened_at), 'unreachable', o.record_id, o.source_id,
           coalesce(n.title, 'unreachable: ' || o.record_id || ' ' || o.source_id || ' failed '
                    || o.failures || ' refreshes in a row'),
           n.delivered_at, coalesce(n.body, o.last_error), o.notification_id
    FROM open_alerts o LEFT JOIN notifications n USING (notification_id)
    WHERE NOT $everything
    UNION ALL
    SELECT 2, n.raised_at, n.kind, n.record_id, n.source_id, n.title, n.delivered_at, n.body,
           n.notification_id
    FROM notifications n JOIN newest_run r ON n.run_id = r.run_id
    WHERE NOT $everything
      AND n.notification_id NOT IN (SELECT notification_id FROM open_alerts
                                     WHERE notification_id IS NOT NULL)
)
SELECT raised_at, kind, record_id, source_id, title, delivered_at, body, notification_id
FROM listed
WHERE ($kind IS NULL OR kind = $kind) AND ($since IS NULL OR raised_at >= $since)
ORDER BY part, raised_at DESC, notification_id DESC;
