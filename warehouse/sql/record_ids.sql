-- The ids of the records the database holds.
SELECT record_id FROM store.records;
