DROP TABLE IF EXISTS bank_job_counts, bank_cell_counts;
DROP INDEX IF EXISTS bank_numbers_cell;
ALTER TABLE bank_numbers DROP COLUMN IF EXISTS cell;
DELETE FROM bank_meta;
