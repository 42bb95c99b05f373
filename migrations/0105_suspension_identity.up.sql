-- Suspension, impersonation and the identity of deferred work (issue 38 items 1, 4, 5).
-- suspended_at marks a send that a suspension paused: reactivation resumes exactly
-- these. A campaign keeps the API key and sandbox flag it was made with. An
-- impersonation session names its staff user, so it ends with them.
ALTER TABLE sends ADD COLUMN suspended_at timestamptz;
CREATE INDEX sends_suspended ON sends (account_id) WHERE suspended_at IS NOT NULL;
ALTER TABLE campaigns ADD COLUMN api_key_id bigint REFERENCES api_keys(id) ON DELETE SET NULL,
    ADD COLUMN sandbox boolean NOT NULL DEFAULT false;
ALTER TABLE sessions ADD COLUMN impersonator_id bigint REFERENCES users(id) ON DELETE CASCADE;
CREATE INDEX sessions_impersonator ON sessions (impersonator_id) WHERE impersonator_id IS NOT NULL;
