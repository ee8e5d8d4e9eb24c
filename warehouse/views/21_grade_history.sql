-- One row each time a record's grade or freshness changes.
CREATE VIEW grade_history AS
SELECT record_id, grade, freshness, changed_at FROM store.grade_history;
