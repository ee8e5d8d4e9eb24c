-- The evidence: the newest snapshot not held for review.
CREATE VIEW store.current_snapshots AS SELECT * FROM store.newest_snapshots(false);
