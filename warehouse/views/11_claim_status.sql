-- Each claim's grade and condition.
CREATE VIEW claim_status AS
SELECT c.record_id, c.claim_id, c.quote, c.status, g.grade, g.checked_at,
       g.confirming_sources, g.found_values, k.condition, k.detail AS condition_detail
FROM store.claims c
JOIN store.claim_grades g USING (record_id, claim_id)
LEFT JOIN store.claim_conditions k USING (record_id, claim_id)
ORDER BY c.record_id, c.position;
