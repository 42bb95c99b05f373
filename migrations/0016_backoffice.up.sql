-- Staff users and the back office: review queues, send moderation rules and the
-- held / blocked states of a send.

-- Staff users live in the platform's own account and never pass the customer guard.
ALTER TABLE users ADD COLUMN is_staff boolean NOT NULL DEFAULT false;

-- A held send waits for staff review (its price is held, nothing is expanded); a
-- blocked one was refused by staff and refunded in full.
ALTER TABLE sends DROP CONSTRAINT sends_status_check;
ALTER TABLE sends ADD CONSTRAINT sends_status_check
    CHECK (status IN ('scheduled', 'queued', 'expanding', 'sending', 'paused', 'held', 'done', 'stopped', 'failed', 'blocked'));
-- review_note is the staff's reason shown to the customer on a blocked send.
ALTER TABLE sends ADD COLUMN review_note text NOT NULL DEFAULT '';

-- One item of a review queue: kind names the queue (send, pattern, document …),
-- subject_id the row of that feature under review.
CREATE TABLE review_items (
    id          bigserial PRIMARY KEY,
    kind        text NOT NULL,
    account_id  bigint NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    subject_id  bigint NOT NULL,
    status      text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'approved', 'rejected')),
    reasons     text[] NOT NULL DEFAULT '{}',
    summary     text NOT NULL DEFAULT '',
    decision    text NOT NULL DEFAULT '',
    decided_by  bigint REFERENCES users(id) ON DELETE SET NULL,
    decided_at  timestamptz,
    created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX review_items_pending_key ON review_items (kind, subject_id) WHERE status = 'pending';
CREATE INDEX review_items_queue_idx ON review_items (status, kind, id);

-- Send moderation rules as data: sensitive words, and the settings row below.
CREATE TABLE moderation_words (
    word       text PRIMARY KEY,
    created_at timestamptz NOT NULL DEFAULT now()
);
INSERT INTO moderation_words (word) VALUES ('کازینو'), ('قمار'), ('شرط بندی'), ('casino');
-- links: hold a text with a link; new_account_sends / new_account_size: hold one of an
-- account's first new_account_sends sends with more recipients than new_account_size
-- (0 turns the rule off).
INSERT INTO settings (key, value) VALUES ('moderation', '{"links": true, "new_account_sends": 0, "new_account_size": 0}')
ON CONFLICT (key) DO NOTHING;

-- Content that customers see, edited by staff: dashboard news, banners, quick access
-- links, FAQ, contact info, charge packages and the today-only gift. amount is in
-- rials (packages and gifts); an item shows while active and inside [starts_at, ends_at).
CREATE TABLE content_items (
    id          bigserial PRIMARY KEY,
    kind        text NOT NULL CHECK (kind IN ('news', 'banner', 'quick_access', 'faq', 'contact', 'charge_package', 'today_gift')),
    title       text NOT NULL,
    body        text NOT NULL DEFAULT '',
    link        text NOT NULL DEFAULT '',
    amount      bigint NOT NULL DEFAULT 0 CHECK (amount >= 0),
    position    int NOT NULL DEFAULT 0,
    active      boolean NOT NULL DEFAULT true,
    starts_at   timestamptz,
    ends_at     timestamptz,
    updated_by  bigint REFERENCES users(id) ON DELETE SET NULL,
    created_at  timestamptz NOT NULL DEFAULT now(),
    updated_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX content_items_kind_idx ON content_items (kind, position, id);
