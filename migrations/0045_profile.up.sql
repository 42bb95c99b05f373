-- The profile (spec §3 Profile): the account's identity as a real or legal person,
-- its logo, its documents under staff review, the owner's mobile changes under staff
-- review, the account's settings and its plan (spec §6: services that need an upgrade).
-- Mobile changes prove both numbers with step-up codes: challenges gain the
-- 'mobile_old' and 'mobile_new' purposes (added to whatever list the check holds).
DO $$
DECLARE def text;
BEGIN
    SELECT pg_get_constraintdef(oid) INTO def FROM pg_constraint
        WHERE conname = 'challenges_purpose_check' AND conrelid = 'challenges'::regclass;
    ALTER TABLE challenges DROP CONSTRAINT challenges_purpose_check;
    EXECUTE 'ALTER TABLE challenges ADD CONSTRAINT challenges_purpose_check '
        || replace(def, 'ARRAY[', 'ARRAY[''mobile_old''::text, ''mobile_new''::text, ');
END $$;

-- details holds the validated fields of pkg/profile.Details (they are read and
-- written whole, never queried one by one).
CREATE TABLE profiles (
    account_id  bigint PRIMARY KEY REFERENCES accounts(id) ON DELETE CASCADE,
    person_type text NOT NULL DEFAULT 'real' CHECK (person_type IN ('real', 'legal')),
    details     jsonb NOT NULL DEFAULT '{}',
    logo_key    text NOT NULL DEFAULT '',
    logo_type   text NOT NULL DEFAULT '',
    updated_by  bigint REFERENCES users(id) ON DELETE SET NULL,
    updated_at  timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE account_documents (
    id           bigserial PRIMARY KEY,
    account_id   bigint NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    user_id      bigint REFERENCES users(id) ON DELETE SET NULL,
    kind         text NOT NULL,
    file_key     text NOT NULL,
    file_type    text NOT NULL,
    file_name    text NOT NULL DEFAULT '',
    file_size    bigint NOT NULL,
    status       text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'approved', 'rejected')),
    reason       text NOT NULL DEFAULT '',
    created_at   timestamptz NOT NULL DEFAULT now(),
    decided_at   timestamptz
);
CREATE INDEX account_documents_account_idx ON account_documents (account_id, id DESC);

-- A mobile change: 'verifying' until the new number's code, then 'pending' staff
-- review; the user's mobile changes only on approval. One open change per user.
CREATE TABLE mobile_changes (
    id          bigserial PRIMARY KEY,
    account_id  bigint NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    user_id     bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    old_mobile  text NOT NULL,
    new_mobile  text NOT NULL,
    status      text NOT NULL DEFAULT 'verifying'
        CHECK (status IN ('verifying', 'pending', 'approved', 'rejected', 'cancelled')),
    otp_hash    bytea NOT NULL,
    reason      text NOT NULL DEFAULT '',
    created_at  timestamptz NOT NULL DEFAULT now(),
    decided_at  timestamptz
);
CREATE UNIQUE INDEX mobile_changes_open_key ON mobile_changes (user_id) WHERE status IN ('verifying', 'pending');

CREATE TABLE account_settings (
    account_id       bigint PRIMARY KEY REFERENCES accounts(id) ON DELETE CASCADE,
    cancel11_default boolean NOT NULL DEFAULT false,
    updated_by       bigint REFERENCES users(id) ON DELETE SET NULL,
    updated_at       timestamptz NOT NULL DEFAULT now()
);

ALTER TABLE accounts ADD COLUMN plan text NOT NULL DEFAULT 'basic' CHECK (plan IN ('basic', 'pro', 'enterprise'));
