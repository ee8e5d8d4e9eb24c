-- 009: for an absent claim, the passage of the page nearest to its quote (a hint of where
-- a reworded sentence went; never a confirmation).
ALTER TABLE store.checks ADD COLUMN closest_text VARCHAR;
ALTER TABLE store.checks ADD COLUMN closest_score INTEGER;
ALTER TABLE store.current_checks ADD COLUMN closest_text VARCHAR;
ALTER TABLE store.current_checks ADD COLUMN closest_score INTEGER;
