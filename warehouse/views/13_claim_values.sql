-- Every distinct value each source has shown for a claim, oldest first.
CREATE VIEW claim_values AS
SELECT record_id, claim_id, source_id, value, unit, currency, status, text, first_seen_at,
       last_seen_at, current
FROM store.claim_values
ORDER BY record_id, claim_id, source_id, value_id;
