-- What the grade rules (grade_rules.sql) read, as tables of an in-memory database, for a
-- catalog graded offline (`evidence check`, `evidence plan`): the checks it would make.
CREATE TEMP TABLE grading_checks (
    record_id VARCHAR, claim_id VARCHAR, source_id VARCHAR, role VARCHAR, outcome VARCHAR,
    checked_at TIMESTAMPTZ, via VARCHAR, run_id VARCHAR, found_values DOUBLE[] DEFAULT [],
    dead_since TIMESTAMPTZ
);
CREATE TEMP TABLE grading_claims (record_id VARCHAR, claim_id VARCHAR);
CREATE TEMP TABLE grading_records (record_id VARCHAR, window_s BIGINT);
CREATE TEMP TABLE graded_claims (
    record_id VARCHAR, claim_id VARCHAR, grade VARCHAR, checked_at TIMESTAMPTZ, via VARCHAR,
    confirming_sources VARCHAR[], found_values DOUBLE[], disagree BOOLEAN
);
