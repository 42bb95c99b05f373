DROP INDEX IF EXISTS sessions_user_ip_idx;
DELETE FROM challenges WHERE user_id IS NULL OR purpose IN ('register', 'external');
ALTER TABLE challenges DROP CONSTRAINT challenges_purpose_check;
ALTER TABLE challenges ADD CONSTRAINT challenges_purpose_check CHECK (purpose IN ('login', 'reset', 'change_password'));
ALTER TABLE challenges DROP COLUMN issued_by;
ALTER TABLE challenges DROP COLUMN subject;
ALTER TABLE challenges ALTER COLUMN user_id SET NOT NULL;
ALTER TABLE users DROP COLUMN mobile_verified;
