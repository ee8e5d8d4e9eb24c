SELECT c.claim_id, s.source_id, s.role,
       coalesce(k.outcome, 'not fetched') AS outcome, k.found_text, k.found_values, k.checked_at,
       n.published_on, n.modified_on, k.closest_text, k.closest_score, k.found_status,
       coalesce(k.counts, true) AS counts
FROM store.claims c
JOIN store.sources s
  ON s.record_id = c.record_id
 AND (c.source_ids IS NULL OR list_contains(c.source_ids, s.source_id))
LEFT JOIN claim_checks k
  ON k.record_id = c.record_id AND k.claim_id = c.claim_id AND k.source_id = s.source_id
LEFT JOIN snapshots n ON n.snapshot_id = k.snapshot_id
WHERE c.record_id = $record_id
ORDER BY c.position, s.position;
