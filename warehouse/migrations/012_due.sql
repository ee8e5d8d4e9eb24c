-- 012: refreshing what is due. The schedule a refresh plans by (written by each one);
-- each source's change rate, estimated from its own fetches and snapshots; and when it is
-- next due, in `source_health`.
CREATE TABLE store.schedule (
    interval_s DOUBLE NOT NULL,        -- to the next scheduled run, from the last refresh (schedule.cron)
    margin_s DOUBLE NOT NULL,          -- schedule.margin
    change_threshold DOUBLE NOT NULL   -- schedule.change_threshold
);

-- Changes a day, as Cho and Garcia-Molina estimate a Poisson rate from n accesses I days
-- apart that saw X changes ("Estimating frequency of change", ACM TOIT 2003): changes
-- hidden between two fetches are counted in, and a page that changed at every fetch
-- still gets a finite rate.
CREATE OR REPLACE MACRO store.change_rate(intervals, changes, span_days) AS
    CASE WHEN intervals >= 1 AND span_days > 0
         THEN greatest(0.0,
                       -ln((intervals - changes + 0.5) / (intervals + 0.5)) / (span_days / intervals))
    END;
