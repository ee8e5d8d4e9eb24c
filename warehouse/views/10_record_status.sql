-- Each record's grade and freshness, with the worst condition of its claims.
CREATE VIEW record_status AS
WITH worst AS (
    SELECT record_id,
           CASE WHEN bool_or(condition = 'fail') THEN 'fail'
                WHEN bool_or(condition = 'warn') THEN 'warn'
                ELSE 'pass' END AS conditions
    FROM store.claim_conditions GROUP BY record_id
)
SELECT r.record_id, r.title, g.grade, g.sources_confirming, g.checked_at, g.stale_on,
       freshness_of(g.checked_at, g.stale_on) AS freshness, g.via, w.conditions
FROM store.records r
JOIN store.record_grades g USING (record_id)
LEFT JOIN worst w USING (record_id)
ORDER BY r.position;
