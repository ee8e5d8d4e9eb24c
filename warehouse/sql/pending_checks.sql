-- Claim x newest successful snapshot pairs that have no check for the claim's current quote
-- ($hashes: only snapshots of these pages; NULL: all). A check is for the claim's quote,
-- status and figure, made by the current rules (warehouse/store.py, CHECK_RULES).
SELECT c.record_id, c.claim_id, s.source_id, n.snapshot_id, c.quote, sn.content_hash, c.status,
       c.figure, r.title
FROM store.claims c
JOIN store.records r ON r.record_id = c.record_id
JOIN store.sources s
  ON s.record_id = c.record_id
 AND (c.source_ids IS NULL OR list_contains(c.source_ids, s.source_id))
JOIN (SELECT * FROM store.latest_snapshots UNION SELECT * FROM store.current_snapshots) n
  ON n.record_id = s.record_id AND n.source_id = s.source_id
JOIN store.snapshots sn ON sn.snapshot_id = n.snapshot_id
ANTI JOIN store.checks k
  ON k.record_id = c.record_id AND k.claim_id = c.claim_id AND k.source_id = s.source_id
 AND k.snapshot_id = n.snapshot_id AND k.quote = c.quote AND k.rules = 2
 AND k.claim_status IS NOT DISTINCT FROM c.status AND k.figure IS NOT DISTINCT FROM c.figure
WHERE $hashes IS NULL OR list_contains($hashes::VARCHAR[], sn.content_hash)
ORDER BY sn.content_hash;
