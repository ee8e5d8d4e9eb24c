-- A record's sources whose page fails now: their last outcome and since when.
SELECT source_id, last_outcome, failing_since
FROM store.source_health_base
WHERE record_id = $record_id AND failing_since IS NOT NULL;
