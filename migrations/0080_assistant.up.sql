-- The AI writing assistant (docs/assistant.md): conversations of an account's
-- users with the assistant, kept 30 days after their last message, and the
-- per-account daily use counted against ASSISTANT_DAILY_QUOTA.
CREATE TABLE assistant_conversations (
    id         bigserial PRIMARY KEY,
    account_id bigint NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    user_id    bigint REFERENCES users(id) ON DELETE SET NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    last_at    timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX assistant_conversations_last ON assistant_conversations (last_at);
CREATE INDEX assistant_conversations_account ON assistant_conversations (account_id, id);

CREATE TABLE assistant_messages (
    id              bigserial PRIMARY KEY,
    conversation_id bigint NOT NULL REFERENCES assistant_conversations(id) ON DELETE CASCADE,
    kind            text NOT NULL CHECK (kind IN ('user', 'ai')),
    text            text NOT NULL,
    created_at      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX assistant_messages_conversation ON assistant_messages (conversation_id, id);

CREATE TABLE assistant_usage (
    account_id bigint NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    day        date NOT NULL,
    requests   integer NOT NULL DEFAULT 0,
    PRIMARY KEY (account_id, day)
);
