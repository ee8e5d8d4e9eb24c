-- Claim x newest successful snapshot pairs that have no check for the claim's current quote
-- ($hashes: only snapshots of these pages; NULL: all).
SELECT c.record_id, c.claim_id, s.source_id, n.snapshot_id, c.quote, sn.content_hash
FROM store.claims c
JOIN store.sources s
  ON s.record_id = c.record_id
 AND (c.source_ids IS NULL OR list_contains(c.source_ids, s.source_id))
JOIN (SELECT * FROM store.latest_snapshots UNION SELECT * FROM store.current_snapshots) n
  ON n.record_id = s.record_id AND n.source_id = s.source_id
JOIN store.snapshots sn ON sn.snapshot_id = n.snapshot_id
ANTI JOIN store.checks k
  ON k.record_id = c.record_id AND k.claim_id = c.claim_id AND k.source_id = s.source_id
 AND k.snapshot_id = n.snapshot_id AND k.quote = c.quote
WHERE $hashes IS NULL OR list_contains($hashes::VARCHAR[], sn.content_hash)
ORDER BY sn.content_hash;
