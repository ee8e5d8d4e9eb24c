-- Every value each source has shown for the record's claims, oldest first.
SELECT claim_id, source_id, value, unit, currency, status, text, first_seen_at, last_seen_at,
       current
FROM claim_values WHERE record_id = $record_id
ORDER BY claim_id, source_id, first_seen_at;
