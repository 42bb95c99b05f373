DROP INDEX IF EXISTS sessions_impersonator;
ALTER TABLE sessions DROP COLUMN IF EXISTS impersonator_id;
ALTER TABLE campaigns DROP COLUMN IF EXISTS sandbox, DROP COLUMN IF EXISTS api_key_id;
DROP INDEX IF EXISTS sends_suspended;
ALTER TABLE sends DROP COLUMN IF EXISTS suspended_at;
