-- Patterns (spec §3 Pattern, §5 Pattern rules; docs/patterns.md). A pattern is its
-- stable code and kind; its title, text and variables live in versions. A version is
-- pending, approved or rejected; active_version_id is the approved version that sends
-- (kept while a newer version waits for review). Systemic patterns have no account:
-- staff define them and every customer reads them.
CREATE TABLE patterns (
    id                bigserial PRIMARY KEY,
    account_id        bigint REFERENCES accounts(id) ON DELETE CASCADE,
    code              text NOT NULL UNIQUE,
    kind              text NOT NULL CHECK (kind IN ('otp', 'transactional', 'normal')),
    shared            boolean NOT NULL DEFAULT false,
    systemic          boolean NOT NULL DEFAULT false,
    created_by        bigint REFERENCES users(id) ON DELETE SET NULL,
    active_version_id bigint,
    latest_version_id bigint,
    created_at        timestamptz NOT NULL DEFAULT now(),
    updated_at        timestamptz NOT NULL DEFAULT now(),
    CHECK (systemic = (account_id IS NULL))
);
CREATE INDEX patterns_account_idx ON patterns (account_id, id DESC);

CREATE TABLE pattern_versions (
    id          bigserial PRIMARY KEY,
    pattern_id  bigint NOT NULL REFERENCES patterns(id) ON DELETE CASCADE,
    version     int NOT NULL,
    title       text NOT NULL,
    description text NOT NULL DEFAULT '',
    text        text NOT NULL,
    variables   jsonb NOT NULL DEFAULT '[]',
    status      text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'approved', 'rejected')),
    reason      text NOT NULL DEFAULT '',
    created_by  bigint REFERENCES users(id) ON DELETE SET NULL,
    created_at  timestamptz NOT NULL DEFAULT now(),
    decided_at  timestamptz,
    UNIQUE (pattern_id, version)
);

ALTER TABLE patterns ADD FOREIGN KEY (active_version_id) REFERENCES pattern_versions(id) ON DELETE SET NULL;
ALTER TABLE patterns ADD FOREIGN KEY (latest_version_id) REFERENCES pattern_versions(id) ON DELETE SET NULL;

-- The platform's own login code as a systemic pattern customers can read (and send).
INSERT INTO patterns (code, kind, systemic) VALUES ('login-otp', 'otp', true);
INSERT INTO pattern_versions (pattern_id, version, title, description, text, variables, status, decided_at)
SELECT id, 1, 'کد ورود', 'کد یک‌بارمصرف ورود به حساب',
    'کد ورود شما: %code%' || chr(10) || 'این کد را در اختیار دیگران قرار ندهید.',
    '[{"name": "code", "type": "integer", "length": 8}]', 'approved', now()
FROM patterns WHERE code = 'login-otp';
UPDATE patterns p SET active_version_id = v.id, latest_version_id = v.id
FROM pattern_versions v WHERE v.pattern_id = p.id AND p.code = 'login-otp';
