-- One row per record, what needs a person first (as the site's index does): contradicted,
-- then not fresh, then the weakest grade.
SELECT record_id, grade, sources_confirming, checked_at, stale_on, freshness
FROM record_status
ORDER BY CASE WHEN grade = 'contradicted' THEN 0 WHEN freshness <> 'fresh' THEN 1 ELSE 2 END,
         CASE grade WHEN 'contradicted' THEN 0 WHEN 'unverified' THEN 1
                    WHEN 'reported' THEN 2 ELSE 3 END,
         record_id;
