-- The statuses each snapshot states.
CREATE VIEW statuses AS
SELECT s.snapshot_id, s.source_id, t.status, t.phrase, t.sentence, s.record_id
FROM store.snapshots s JOIN store.page_statuses t USING (content_hash);
