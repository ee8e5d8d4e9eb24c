-- What claims are checked on: the newest snapshot, held or not.
CREATE VIEW store.latest_snapshots AS SELECT * FROM store.newest_snapshots(true);
