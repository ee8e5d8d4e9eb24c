-- Each source of a record (or the one named) in the catalog's order, with its snapshots
-- oldest first (none: one row with a null snapshot): what `evidence diff` compares.
SELECT s.source_id, n.snapshot_id, n.fetched_at, coalesce(n.text, '') AS text
FROM store.sources s
LEFT JOIN snapshots n USING (record_id, source_id)
WHERE s.record_id = $record_id AND ($source_id IS NULL OR s.source_id = $source_id)
ORDER BY s.position, n.snapshot_id;
