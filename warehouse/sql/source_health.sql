-- Every column of source_health: one record's sources, or every source ($record_id NULL).
SELECT * FROM source_health WHERE $record_id IS NULL OR record_id = $record_id;
