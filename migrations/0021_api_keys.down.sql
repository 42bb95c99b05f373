DROP TABLE IF EXISTS api_keys;
DELETE FROM challenges WHERE purpose = 'apikey';
DO $$
DECLARE def text;
BEGIN
    SELECT pg_get_constraintdef(oid) INTO def FROM pg_constraint
        WHERE conname = 'challenges_purpose_check' AND conrelid = 'challenges'::regclass;
    ALTER TABLE challenges DROP CONSTRAINT challenges_purpose_check;
    EXECUTE 'ALTER TABLE challenges ADD CONSTRAINT challenges_purpose_check '
        || replace(def, '''apikey''::text, ', '');
END $$;
