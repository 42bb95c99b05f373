-- Secretaries and keyword readers (spec §3, §7 Secretary; docs/inbox-secretaries.md).
-- A reader watches one line of its account: the received-message secretary answers
-- every message (or those with its keywords); the keyword readers (contest, poll,
-- feedback, gift, visit) answer the messages that start with their keywords. Staff
-- review a reader before it answers (status pending → active).
CREATE TABLE readers (
    id            bigserial PRIMARY KEY,
    account_id    bigint NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    kind          text NOT NULL CHECK (kind IN ('secretary', 'contest', 'poll', 'feedback', 'gift', 'visit')),
    title         text NOT NULL,
    line          text NOT NULL,
    keywords      text[] NOT NULL DEFAULT '{}',  -- normalised (inbox.Normalize)
    reply         text NOT NULL DEFAULT '',      -- the answer (contest: to a correct one)
    reply_wrong   text NOT NULL DEFAULT '',      -- contest: wrong answer; gift: codes ran out; poll: unknown option
    reply_repeat  text NOT NULL DEFAULT '',      -- a sender's second time (contest, gift, poll when not changeable)
    answer        text NOT NULL DEFAULT '',      -- contest: the correct answer, normalised
    options       jsonb NOT NULL DEFAULT '[]',   -- poll: [{"title": "...", "keywords": ["..."]}], numbered from 1
    changeable    boolean NOT NULL DEFAULT false, -- poll: a sender may change the vote
    phonebook_id  bigint,                        -- secretary: senders join this group
    expires_at    timestamptz,
    status        text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'active', 'disabled', 'rejected')),
    reason        text NOT NULL DEFAULT '',
    created_at    timestamptz NOT NULL DEFAULT now(),
    updated_at    timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX readers_account_idx ON readers (account_id, id DESC);
CREATE INDEX readers_line_idx ON readers (line) WHERE status = 'active';

-- One row per sender per reader: a contest entry, a poll vote, a gift's receiver, a
-- visit count. The primary key is what makes «once per sender» hold under load.
CREATE TABLE reader_participants (
    reader_id  bigint NOT NULL REFERENCES readers(id) ON DELETE CASCADE,
    sender     text NOT NULL,
    option     int NOT NULL DEFAULT 0,
    correct    boolean NOT NULL DEFAULT false,
    code       text NOT NULL DEFAULT '',
    visits     int NOT NULL DEFAULT 1,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (reader_id, sender)
);
CREATE INDEX reader_participants_option_idx ON reader_participants (reader_id, option);

-- Every message a reader answered, with its outcome and reply; replies leave in
-- batches (reply_batch, then reply_send_id) through the send engine.
CREATE TABLE reader_entries (
    id            bigserial PRIMARY KEY,
    reader_id     bigint NOT NULL REFERENCES readers(id) ON DELETE CASCADE,
    account_id    bigint NOT NULL,
    inbox_id      bigint NOT NULL UNIQUE,
    sender        text NOT NULL,
    text          text NOT NULL,
    outcome       text NOT NULL,
    reply         text NOT NULL DEFAULT '',
    reply_batch   bigint,
    claimed_at    timestamptz,
    reply_send_id bigint,
    reply_error   text NOT NULL DEFAULT '',
    created_at    timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX reader_entries_reader_idx ON reader_entries (reader_id, id DESC);
CREATE INDEX reader_entries_unsent_idx ON reader_entries (id) WHERE reply_send_id IS NULL AND reply <> '';
CREATE SEQUENCE reader_reply_batches;

-- A gift's codes: each given once (sender set), taken with FOR UPDATE SKIP LOCKED.
CREATE TABLE reader_codes (
    id        bigserial PRIMARY KEY,
    reader_id bigint NOT NULL REFERENCES readers(id) ON DELETE CASCADE,
    code      text NOT NULL,
    sender    text,
    given_at  timestamptz,
    UNIQUE (reader_id, code)
);
CREATE INDEX reader_codes_free_idx ON reader_codes (reader_id, id) WHERE sender IS NULL;

-- A contest's draws: the seed is kept, so the same seed over the same entrants
-- draws the same winners.
CREATE TABLE reader_draws (
    id         bigserial PRIMARY KEY,
    reader_id  bigint NOT NULL REFERENCES readers(id) ON DELETE CASCADE,
    seed       bigint NOT NULL,
    wanted     int NOT NULL,
    entrants   int NOT NULL,
    winners    text[] NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now()
);
