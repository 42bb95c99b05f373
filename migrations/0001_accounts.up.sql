-- Accounts (businesses), their users (owner and colleagues), roles, sessions,
-- login challenges (two-step login and password reset), settings and the audit log.

CREATE TABLE accounts (
    id          bigserial PRIMARY KEY,
    name        text NOT NULL,
    parent_id   bigint REFERENCES accounts(id), -- reseller
    status      text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'suspended')),
    created_at  timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE roles (
    id          bigserial PRIMARY KEY,
    account_id  bigint NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    name        text NOT NULL,
    permissions text[] NOT NULL DEFAULT '{}',
    created_at  timestamptz NOT NULL DEFAULT now(),
    UNIQUE (account_id, name)
);

CREATE TABLE users (
    id               bigserial PRIMARY KEY,
    account_id       bigint NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    username         text NOT NULL,
    password_hash    text NOT NULL,
    name             text NOT NULL DEFAULT '',
    mobile           text NOT NULL DEFAULT '',
    email            text NOT NULL DEFAULT '',
    is_owner         boolean NOT NULL DEFAULT false,
    role_id          bigint REFERENCES roles(id) ON DELETE SET NULL,
    status           text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'pending', 'disabled')),
    two_step         boolean NOT NULL DEFAULT true,
    two_step_method  text NOT NULL DEFAULT 'sms' CHECK (two_step_method IN ('sms', 'voice', 'app')),
    totp_secret      text,
    totp_pending     text,
    rules_accepted_at timestamptz,
    created_at       timestamptz NOT NULL DEFAULT now(),
    updated_at       timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX users_username_key ON users (lower(username));
CREATE INDEX users_account_idx ON users (account_id);

CREATE TABLE sessions (
    id          bigserial PRIMARY KEY,
    user_id     bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    account_id  bigint NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    token_hash  bytea NOT NULL UNIQUE,
    impersonated_by text NOT NULL DEFAULT '',
    ip          text NOT NULL DEFAULT '',
    user_agent  text NOT NULL DEFAULT '',
    created_at  timestamptz NOT NULL DEFAULT now(),
    expires_at  timestamptz NOT NULL,
    revoked_at  timestamptz
);
CREATE INDEX sessions_user_idx ON sessions (user_id);

-- A challenge is one pending second step: a login, a password reset, or a password
-- change grant. Only hashes of its token and code are stored.
CREATE TABLE challenges (
    id              bigserial PRIMARY KEY,
    user_id         bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    purpose         text NOT NULL CHECK (purpose IN ('login', 'reset', 'change_password')),
    token_hash      bytea NOT NULL UNIQUE,
    method          text NOT NULL DEFAULT 'sms',
    code_hash       bytea,
    code_expires_at timestamptz,
    tries           int NOT NULL DEFAULT 0,
    max_tries       int NOT NULL,
    resend_at       timestamptz NOT NULL DEFAULT now(),
    sends           int NOT NULL DEFAULT 0,
    ip              text NOT NULL DEFAULT '',
    expires_at      timestamptz NOT NULL,
    consumed_at     timestamptz,
    created_at      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX challenges_user_idx ON challenges (user_id);

CREATE TABLE settings (
    key        text PRIMARY KEY,
    value      jsonb NOT NULL,
    updated_at timestamptz NOT NULL DEFAULT now()
);
INSERT INTO settings (key, value) VALUES ('login_setting', jsonb_build_object(
    'title', 'چاپار، سامانه ارسال پیامک انبوه',
    'description', 'ارسال سریع و مطمئن پیامک به میلیون‌ها مخاطب، با گزارش لحظه‌ای تحویل، دفترچه تلفن، پیامک الگو و وب‌سرویس.'));

CREATE TABLE audit_log (
    id          bigserial PRIMARY KEY,
    account_id  bigint REFERENCES accounts(id) ON DELETE CASCADE,
    user_id     bigint REFERENCES users(id) ON DELETE SET NULL,
    api_key_id  bigint,
    action      text NOT NULL,
    target      text NOT NULL DEFAULT '',
    details     jsonb NOT NULL DEFAULT '{}',
    ip          text NOT NULL DEFAULT '',
    created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX audit_log_account_idx ON audit_log (account_id, created_at DESC);
