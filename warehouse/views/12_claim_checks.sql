-- The check each claim's grade rests on, per source.
CREATE VIEW claim_checks AS
SELECT record_id, claim_id, source_id, snapshot_id, checked_at, outcome, found_text, found_values,
       closest_text, closest_score, found_status, coalesce(counts, true) AS counts
FROM store.current_checks;
