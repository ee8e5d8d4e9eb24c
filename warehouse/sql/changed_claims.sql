-- Current claim checks that found other numbers or another status, with when the change
-- was first seen: the first fetch of the page that shows it. It stays put while
-- refreshes find the same.
SELECT k.record_id, k.claim_id, k.source_id, k.snapshot_id, k.found_text, k.found_status,
       c.status, coalesce(s.fetched_at, k.checked_at) AS changed_at
FROM claim_checks k
LEFT JOIN store.claims c USING (record_id, claim_id)
LEFT JOIN snapshots s USING (snapshot_id)
WHERE k.outcome = 'changed' AND k.checked_at IS NOT NULL
