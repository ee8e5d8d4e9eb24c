-- One row per record; warehouse/queries.py orders them, what needs a person first.
SELECT record_id, grade, sources_confirming, checked_at, stale_on, freshness
FROM record_status;
