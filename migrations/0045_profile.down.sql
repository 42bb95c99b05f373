ALTER TABLE accounts DROP COLUMN IF EXISTS plan;
DROP TABLE IF EXISTS account_settings;
DROP TABLE IF EXISTS mobile_changes;
DROP TABLE IF EXISTS account_documents;
DROP TABLE IF EXISTS profiles;
DELETE FROM challenges WHERE purpose IN ('mobile_old', 'mobile_new');
DO $$
DECLARE def text;
BEGIN
    SELECT pg_get_constraintdef(oid) INTO def FROM pg_constraint
        WHERE conname = 'challenges_purpose_check' AND conrelid = 'challenges'::regclass;
    ALTER TABLE challenges DROP CONSTRAINT challenges_purpose_check;
    EXECUTE 'ALTER TABLE challenges ADD CONSTRAINT challenges_purpose_check '
        || replace(def, '''mobile_old''::text, ''mobile_new''::text, ', '');
END $$;
