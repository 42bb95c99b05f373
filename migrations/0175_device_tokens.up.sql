-- Login by one-time code and device tokens (docs/auth.md, docs/security.md).
--
-- A device token is a random secret a browser keeps after a successful login; only its
-- SHA-256 is stored, once per user who logged in with it (one browser, several users).
-- A login that carries a live token of its user escapes the per-username lock-out and
-- draws its codes from a budget strangers cannot drain. Password change, reset and
-- «log out everywhere» delete the user's rows.
CREATE TABLE device_tokens (
    token_hash   bytea NOT NULL,
    user_id      bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    created_at   timestamptz NOT NULL DEFAULT now(),
    last_used_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (token_hash, user_id)
);
CREATE INDEX device_tokens_user_idx ON device_tokens (user_id, last_used_at DESC);

-- A challenge remembers whether a trusted device (or a signed-in session) started it:
-- its resends count against the trusted budget of the number's daily codes.
ALTER TABLE challenges ADD COLUMN trusted boolean NOT NULL DEFAULT false;

-- Code login's challenges ('login_code'): the check is widened (an expand step,
-- docs/upgrades.md), added NOT VALID and validated by 0176 outside this
-- transaction's lock.
ALTER TABLE challenges DROP CONSTRAINT IF EXISTS challenges_purpose_check;
ALTER TABLE challenges ADD CONSTRAINT challenges_purpose_check CHECK (purpose IN ('login_code', 'mobile_old',
    'mobile_new', 'apikey', 'login', 'reset', 'change_password', 'register', 'external', 'invite')) NOT VALID;

-- Code login finds a user by the mobile typed (users_mobile_idx), and the lock-out
-- no longer looks sessions up by address: 0176 builds and drops those indexes
-- without blocking writes.
