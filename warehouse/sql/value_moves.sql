-- Each value a source showed for a claim after another one, with the one before and the
-- source's whole history of the claim ("500 GPU hours 2026-11-02 to 2026-12-01; ...").
WITH said AS (
    SELECT *, coalesce(status, text, printf('%g', value)) AS said,
           row_number() OVER (PARTITION BY record_id, claim_id, source_id ORDER BY value_id) AS n,
           count(*) OVER (PARTITION BY record_id, claim_id, source_id) AS rows
    FROM store.claim_values
), history AS (
    SELECT record_id, claim_id, source_id,
           string_agg(CASE WHEN current AND n = rows
                           THEN said || ' since ' || strftime(first_seen_at, '%Y-%m-%d')
                           ELSE said || ' ' || strftime(first_seen_at, '%Y-%m-%d') || ' to '
                                || strftime(last_seen_at, '%Y-%m-%d') END,
                      '; ' ORDER BY value_id) AS history
    FROM said GROUP BY ALL
)
SELECT s.record_id, s.claim_id, s.source_id, p.said AS was, s.said AS now, s.first_seen_at,
       h.history
FROM said s
JOIN said p ON p.record_id = s.record_id AND p.claim_id = s.claim_id
           AND p.source_id = s.source_id AND p.n = s.n - 1
JOIN history h ON h.record_id = s.record_id AND h.claim_id = s.claim_id
              AND h.source_id = s.source_id
ORDER BY s.first_seen_at DESC
LIMIT 500;
