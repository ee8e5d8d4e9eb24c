-- 019: evidence that is alive (docs/grading.md, "Sources that disagree or die"). How long
-- a source may fail permanently before it is dead (fetch.dead_after, written by each
-- refresh beside the schedule); for each current check, the run its page was last
-- fetched in and whether it counts (a dead source's live page does not); for each claim,
-- whether its primaries of one run disagree.
ALTER TABLE store.schedule ADD COLUMN dead_after_s DOUBLE;
ALTER TABLE store.current_checks ADD COLUMN run_id VARCHAR;
ALTER TABLE store.current_checks ADD COLUMN counts BOOLEAN;
ALTER TABLE store.claim_grades ADD COLUMN disagree BOOLEAN;
