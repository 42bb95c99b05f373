-- migrate: no-transaction
-- The birthdays of a day, without reading every contact of the account (0170's
-- jalali_md), built while the contacts stay writable. A database that ran 0170
-- before the index moved here has it already.
CREATE INDEX CONCURRENTLY IF NOT EXISTS contacts_birth_md_idx ON contacts (account_id, jalali_md(birth_date)) WHERE birth_date IS NOT NULL;

-- 0170's widened check on campaign_runs, validated under a lock that lets the
-- runs be read and written meanwhile.
ALTER TABLE campaign_runs VALIDATE CONSTRAINT campaign_runs_status_check;
