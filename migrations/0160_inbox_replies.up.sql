-- Replies from the inbox (docs/inbox-secretaries.md): a received message answered
-- from the panel is marked replied (and read), and each reply is kept with its send
-- so the conversation with one number (the received messages and the replies, in
-- time order) reads from two indexed tables.
ALTER TABLE inbox ADD COLUMN replied_at timestamptz;

CREATE TABLE inbox_replies (
    send_id    bigint PRIMARY KEY REFERENCES sends(id) ON DELETE CASCADE,
    account_id bigint NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    inbox_id   bigint REFERENCES inbox(id) ON DELETE SET NULL,
    mobile     text NOT NULL,   -- the number answered, 98XXXXXXXXXX
    masked     boolean NOT NULL DEFAULT false,
    line       text NOT NULL,
    text       text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX inbox_replies_thread_idx ON inbox_replies (account_id, mobile, created_at DESC);
CREATE INDEX inbox_thread_idx ON inbox (account_id, sender, received_at DESC);
