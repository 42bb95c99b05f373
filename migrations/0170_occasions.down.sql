DELETE FROM campaign_runs WHERE status = 'empty';
ALTER TABLE campaign_runs DROP CONSTRAINT campaign_runs_status_check;
ALTER TABLE campaign_runs ADD CONSTRAINT campaign_runs_status_check CHECK (status IN ('sent', 'failed'));
DROP INDEX IF EXISTS contacts_birth_md_idx; -- 0171 down drops it; a database made before 0171 has it here
DROP FUNCTION jalali_md_text(text);
DROP FUNCTION jalali_md(date);
DROP FUNCTION jalali_md(int, int, int);
