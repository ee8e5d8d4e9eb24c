-- Snapshots held for review (flagged, not accepted).
CREATE VIEW store.held_snapshots AS
SELECT snapshot_id, record_id, source_id, reason, flagged_at
FROM store.snapshot_reviews WHERE reason IS NOT NULL AND accepted_at IS NULL;
