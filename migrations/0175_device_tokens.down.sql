CREATE INDEX IF NOT EXISTS sessions_user_ip_idx ON sessions (user_id, ip);
DROP INDEX IF EXISTS users_mobile_idx;
DELETE FROM challenges WHERE purpose = 'login_code';
DO $$
DECLARE def text;
BEGIN
    SELECT pg_get_constraintdef(oid) INTO def FROM pg_constraint
        WHERE conname = 'challenges_purpose_check' AND conrelid = 'challenges'::regclass;
    ALTER TABLE challenges DROP CONSTRAINT challenges_purpose_check;
    EXECUTE 'ALTER TABLE challenges ADD CONSTRAINT challenges_purpose_check '
        || replace(def, '''login_code''::text, ', '');
END $$;
ALTER TABLE challenges DROP COLUMN trusted;
DROP TABLE device_tokens;
