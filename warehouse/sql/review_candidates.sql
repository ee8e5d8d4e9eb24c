-- New primary snapshots not yet looked at, beside the last snapshot that counted.
WITH candidates AS (
    SELECT l.record_id, l.source_id, l.snapshot_id
    FROM store.latest_snapshots l
    JOIN store.sources s USING (record_id, source_id)
    JOIN store.snapshots sn ON sn.snapshot_id = l.snapshot_id
    WHERE s.role = 'primary' AND sn.via = 'live'
      AND l.snapshot_id NOT IN (SELECT snapshot_id FROM store.snapshot_reviews)
), previous AS (
    SELECT c.record_id, c.source_id, c.snapshot_id, max(sn.snapshot_id) AS previous_id
    FROM candidates c
    JOIN store.snapshots sn
      ON sn.record_id = c.record_id AND sn.source_id = c.source_id
     AND sn.snapshot_id < c.snapshot_id AND sn.via = 'live'
    WHERE sn.snapshot_id NOT IN (SELECT snapshot_id FROM store.held_snapshots)
    GROUP BY ALL
), confirmed AS (
    SELECT k.snapshot_id, count(DISTINCT k.claim_id) AS n
    FROM store.checks k
    JOIN store.claims c USING (record_id, claim_id, quote)
    WHERE k.outcome = 'confirmed'
    GROUP BY k.snapshot_id
)
SELECT c.record_id, c.source_id, c.snapshot_id, p.previous_id,
       coalesce(length(pp.text), 0) AS previous_chars, coalesce(length(pn.text), 0) AS chars,
       coalesce(kp.n, 0) AS previously_confirmed, coalesce(kn.n, 0) AS confirmed
FROM candidates c
LEFT JOIN previous p USING (record_id, source_id, snapshot_id)
JOIN store.snapshots sn ON sn.snapshot_id = c.snapshot_id
JOIN store.pages pn ON pn.content_hash = sn.content_hash
LEFT JOIN store.snapshots sp ON sp.snapshot_id = p.previous_id
LEFT JOIN store.pages pp ON pp.content_hash = sp.content_hash
LEFT JOIN confirmed kn ON kn.snapshot_id = c.snapshot_id
LEFT JOIN confirmed kp ON kp.snapshot_id = p.previous_id;
