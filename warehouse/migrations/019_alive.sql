-- 019: evidence that is alive (docs/grading.md, "Sources that disagree or die"). How long
-- a source may fail permanently before it is dead (fetch.dead_after, written by each
-- refresh beside the schedule); for each current check, the run its page was last
-- fetched in and whether it counts (a dead source's live page does not); for each claim,
-- whether its primaries of one run disagree.
ALTER TABLE store.schedule ADD COLUMN dead_after_s DOUBLE;
ALTER TABLE store.current_checks ADD COLUMN run_id VARCHAR;
ALTER TABLE store.current_checks ADD COLUMN counts BOOLEAN;
ALTER TABLE store.claim_grades ADD COLUMN disagree BOOLEAN;

-- A change rate is estimated from a day of observation at least: two fetches a minute
-- apart say nothing of changes a day.
CREATE OR REPLACE MACRO store.change_rate(intervals, changes, span_days) AS
    CASE WHEN intervals >= 1 AND span_days >= 1
         THEN greatest(0.0,
                       -ln((intervals - changes + 0.5) / (intervals + 0.5)) / (span_days / intervals))
    END;
