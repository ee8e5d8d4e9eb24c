-- Whether the database holds a record.
SELECT 1 FROM store.records WHERE record_id = $record_id;
