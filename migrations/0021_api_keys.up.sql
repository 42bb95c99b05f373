-- API keys (spec §7 Developers): a key belongs to its account and is created by a
-- user; only the HMAC of its secret is stored. Creating one needs a one-time code,
-- so challenges gain the 'apikey' purpose (added to whatever list the check holds,
-- so the purposes of other migrations stay).
DO $$
DECLARE def text;
BEGIN
    SELECT pg_get_constraintdef(oid) INTO def FROM pg_constraint
        WHERE conname = 'challenges_purpose_check' AND conrelid = 'challenges'::regclass;
    ALTER TABLE challenges DROP CONSTRAINT challenges_purpose_check;
    EXECUTE 'ALTER TABLE challenges ADD CONSTRAINT challenges_purpose_check '
        || replace(def, 'ARRAY[', 'ARRAY[''apikey''::text, ');
END $$;

CREATE TABLE api_keys (
    id           bigserial PRIMARY KEY,
    account_id   bigint NOT NULL REFERENCES accounts(id),
    created_by   bigint NOT NULL REFERENCES users(id),
    title        text NOT NULL,
    prefix       text NOT NULL UNIQUE, -- the visible lookup part, e.g. chp_live_1a2b3c4d5e6f
    secret_hash  bytea NOT NULL,
    allowed_ips  text[] NOT NULL DEFAULT '{}',
    scopes       text[] NOT NULL,
    expires_at   timestamptz,
    last_used_at timestamptz,
    revoked_at   timestamptz,
    created_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX api_keys_account ON api_keys (account_id, id DESC) WHERE revoked_at IS NULL;
