SELECT claim_id, quote, status, grade, checked_at, confirming_sources, found_values, condition,
       condition_detail
FROM claim_status WHERE record_id = $record_id;
