ALTER TABLE recipient_claims DROP COLUMN IF EXISTS token;
