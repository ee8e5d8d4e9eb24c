-- The figures each snapshot quotes.
CREATE VIEW quoted_numbers AS
SELECT s.snapshot_id, s.source_id, n.kind, n.value, n.value_end, n.unit, n.currency, n.qualifier,
       n.date_from, n.date_to, n.raw, n.sentence, s.record_id, n.subject
FROM store.snapshots s JOIN store.page_numbers n USING (content_hash);
