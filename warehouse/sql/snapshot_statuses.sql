-- The statuses read from one snapshot, as `evidence diff` lists those that came and went.
SELECT status, phrase FROM statuses WHERE snapshot_id = $snapshot_id;
