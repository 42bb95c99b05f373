-- Predefined messages and drafts (spec §1, §2 /predefined-messages, §7 "Predefined
-- messages"): saved texts in titled groups, and the send wizards' unsent drafts.
CREATE TABLE predefined_groups (
    id         bigserial PRIMARY KEY,
    account_id bigint NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    title      text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    UNIQUE (account_id, title)
);

-- A message belongs to one group of the same account; deleting the group deletes
-- its messages.
CREATE TABLE predefined_messages (
    id         bigserial PRIMARY KEY,
    account_id bigint NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    group_id   bigint NOT NULL REFERENCES predefined_groups(id) ON DELETE CASCADE,
    title      text NOT NULL,
    text       text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX predefined_messages_group ON predefined_messages (account_id, group_id, id DESC);

-- A draft keeps what a send wizard collected: its method, text and settings, and
-- the recipients (numbers) or a reference to their source (file, phonebooks).
CREATE TABLE drafts (
    id            bigserial PRIMARY KEY,
    account_id    bigint NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    created_by    bigint REFERENCES users(id) ON DELETE SET NULL,
    type          text NOT NULL CHECK (type IN ('quick', 'file', 'keyword', 'peer_to_peer', 'phonebook')),
    title         text NOT NULL DEFAULT '',
    text          text NOT NULL DEFAULT '',
    sender        text NOT NULL DEFAULT '',
    cancel11      boolean NOT NULL DEFAULT false,
    numbers       text[] NOT NULL DEFAULT '{}',
    file_id       bigint REFERENCES files(id) ON DELETE SET NULL,
    phonebook_ids bigint[] NOT NULL DEFAULT '{}',
    send_at       timestamptz,
    created_at    timestamptz NOT NULL DEFAULT now(),
    updated_at    timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX drafts_account ON drafts (account_id, updated_at DESC, id DESC);
