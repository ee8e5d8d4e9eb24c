-- Every distinct value each source has shown for each claim, oldest first: the value
-- before the current one is what a `change:` condition is measured against.
SELECT record_id, claim_id, source_id, value, status, text
FROM store.claim_values
ORDER BY record_id, claim_id, source_id, value_id;
