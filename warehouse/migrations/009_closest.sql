-- 009: for an absent claim, the passage of the page nearest to its quote (a hint of where
-- a reworded sentence went; never a confirmation).
ALTER TABLE store.checks ADD COLUMN closest_text VARCHAR;
ALTER TABLE store.checks ADD COLUMN closest_score INTEGER;
ALTER TABLE store.current_checks ADD COLUMN closest_text VARCHAR;
ALTER TABLE store.current_checks ADD COLUMN closest_score INTEGER;

CREATE OR REPLACE VIEW claim_checks AS
SELECT record_id, claim_id, source_id, snapshot_id, checked_at, outcome, found_text, found_values,
       closest_text, closest_score
FROM store.current_checks;
