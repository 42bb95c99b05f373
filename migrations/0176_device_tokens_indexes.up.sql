-- migrate: no-transaction
-- Code login finds a user by the mobile typed. A database that ran 0175 before
-- its indexes moved here has this one already.
CREATE INDEX CONCURRENTLY IF NOT EXISTS users_mobile_idx ON users (mobile) WHERE mobile_verified AND NOT is_staff;

-- The lock-out no longer trusts an address that once opened a session (the device
-- token replaced it): nothing else looks sessions up by address. Dropping an index
-- only slows the previous release's lookups, it breaks none.
DROP INDEX CONCURRENTLY IF EXISTS sessions_user_ip_idx;

-- 0175's widened check on challenges, validated while they stay writable.
ALTER TABLE challenges VALIDATE CONSTRAINT challenges_purpose_check;
