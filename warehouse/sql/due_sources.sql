-- What a `refresh --due` at evidence_now() fetches: each source with the one reason it is
-- due, or NULL when it is not: `why`, a DueReason of extractors/values.py, and `reason`,
-- its words with their figures. Its claims changed: one of them has no check on its
-- current page. Never fetched covers a URL changed in the catalog (no fetch of it yet).
-- A time falls due a little early (up to an hour, half a run at most): the fetch times it
-- is counted from come a few seconds after their run's start. A rate is said to three
-- significant figures, as source_health shows it.
SELECT h.record_id, h.source_id, h.url,
       CASE WHEN h.last_attempt_at IS NULL THEN 'never fetched'
            WHEN d.claims_changed AND h.reachable THEN 'its claims changed'
            WHEN NOT h.reachable AND d.retry_due <= t.soon THEN 'failing'
            WHEN h.reachable AND d.stale_due <= t.soon
                THEN 'its record would go stale before the next run'
            WHEN h.reachable AND d.change_due <= t.soon THEN 'likely changed'
            WHEN h.reachable AND d.learn_due <= t.soon THEN 'learning how often it changes'
       END AS why,
       CASE why
            WHEN 'failing'
                THEN why || ' (' || h.consecutive_failures || ' in a row): tried again'
            WHEN 'likely changed'
                THEN why || ' ('
                     || regexp_replace(store.significant(d.change_rate, 3)::VARCHAR, '\.0$', '')
                     || ' changes a day)'
            ELSE why
       END AS reason,
       h.next_due, h.change_rate
FROM source_health h JOIN store.source_due d USING (record_id, source_id)
CROSS JOIN (
    SELECT evidence_now() + to_seconds(least(3600, coalesce(max(interval_s), 86400) / 2)) AS soon
    FROM store.schedule
) t;
