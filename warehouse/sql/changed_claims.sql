-- Current claim checks that found other numbers, with when the change was first seen:
-- the first fetch of the page that shows it. It stays put while refreshes find the same.
SELECT c.record_id, c.claim_id, c.source_id, c.snapshot_id, c.found_text,
       coalesce(s.fetched_at, c.checked_at) AS changed_at
FROM claim_checks c
LEFT JOIN snapshots s USING (snapshot_id)
WHERE c.outcome = 'changed' AND c.checked_at IS NOT NULL
