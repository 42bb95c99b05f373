-- Registration proves the mobile before it becomes a login target; existing users
-- (the demo seed, colleagues) keep working.
ALTER TABLE users ADD COLUMN mobile_verified boolean NOT NULL DEFAULT true;

-- New challenge kinds: a registration's mobile check, and a one-time external-login code.
-- A decoy reset challenge for an unknown username has no user: it answers like a real one.
ALTER TABLE challenges ALTER COLUMN user_id DROP NOT NULL;
ALTER TABLE challenges ADD COLUMN subject text NOT NULL DEFAULT '';
ALTER TABLE challenges ADD COLUMN issued_by bigint REFERENCES users(id) ON DELETE CASCADE;
ALTER TABLE challenges DROP CONSTRAINT challenges_purpose_check;
ALTER TABLE challenges ADD CONSTRAINT challenges_purpose_check
    CHECK (purpose IN ('login', 'reset', 'change_password', 'register', 'external'));

-- "Has this user logged in from this address before" (a known address is never locked out).
CREATE INDEX sessions_user_ip_idx ON sessions (user_id, ip);
