-- Current claim checks that found other numbers, with when the change was first seen:
-- the current value's first_seen_at on that source, else its page's first fetch. It
-- stays put while refreshes find the same.
SELECT c.record_id, c.claim_id, c.source_id, c.snapshot_id, c.found_text,
       coalesce(v.first_seen_at, s.fetched_at, c.checked_at) AS changed_at
FROM claim_checks c
LEFT JOIN snapshots s USING (snapshot_id)
LEFT JOIN claim_values v
       ON v.record_id = c.record_id AND v.claim_id = c.claim_id
      AND v.source_id = c.source_id AND v.current
WHERE c.outcome = 'changed' AND c.checked_at IS NOT NULL
