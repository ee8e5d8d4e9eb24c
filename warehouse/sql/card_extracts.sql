-- Parsed numbers and statuses of each source's newest successful snapshot (one line for a
-- figure the page repeats).
SELECT n.source_id, 'number' AS what, n.kind, n.value, n.value_end, n.unit, n.currency,
       n.qualifier, n.date_from, n.date_to, n.raw, min(n.sentence) AS sentence, n.subject
FROM store.current_snapshots c JOIN quoted_numbers n USING (snapshot_id)
WHERE c.record_id = $record_id
GROUP BY ALL
UNION ALL
SELECT t.source_id, 'status', t.status, NULL, NULL, NULL, NULL, NULL, NULL, NULL, t.phrase,
       t.sentence, NULL
FROM store.current_snapshots c JOIN statuses t USING (snapshot_id)
WHERE c.record_id = $record_id;
