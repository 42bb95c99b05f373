DROP INDEX IF EXISTS sends_systemic_idx;
ALTER TABLE sends DROP COLUMN IF EXISTS purpose;
