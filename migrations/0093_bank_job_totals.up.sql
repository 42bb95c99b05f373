-- The business lists' counts (GET /send/jobs/categories and sub-categories): one row
-- per sub-category, rewritten with the bank like its other roll-ups, so the lists
-- read 176 rows rather than summing bank_job_counts.
CREATE TABLE bank_job_totals (
    category    smallint NOT NULL,
    subcategory smallint PRIMARY KEY,
    n           bigint NOT NULL
);
CREATE INDEX bank_job_totals_category ON bank_job_totals (category);
DELETE FROM bank_meta;
