SELECT record_id AS id, grade, sources_confirming, checked_at AS checked, stale_on, freshness
FROM record_status;
