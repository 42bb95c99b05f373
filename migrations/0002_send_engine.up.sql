-- The send engine: operators and their prefixes, tariffs, sender lines, the wallet
-- ledger, sends, recipients, SMSC message ids, inbound messages and the lists
-- (blacklists and cancel-11).

CREATE TABLE operators (
    code    text PRIMARY KEY,
    name    text NOT NULL,
    name_fa text NOT NULL
);
INSERT INTO operators (code, name, name_fa) VALUES
    ('mci', 'MCI', 'همراه اول'),
    ('irancell', 'Irancell', 'ایرانسل'),
    ('rightel', 'Rightel', 'رایتل'),
    ('other', 'Other', 'سایر');

-- Routing reads this table: a change needs no deploy. Prefixes are the first five
-- digits of the normalised number (98 + 9xx); numbers matching none are "other".
CREATE TABLE operator_prefixes (
    prefix   text PRIMARY KEY CHECK (prefix ~ '^989[0-9]{2}$'),
    operator text NOT NULL REFERENCES operators(code)
);
INSERT INTO operator_prefixes (prefix, operator)
SELECT '98' || p, 'mci' FROM unnest(ARRAY['910','911','912','913','914','915','916','917','918','919','990','991']) p
UNION ALL
SELECT '98' || p, 'irancell' FROM unnest(ARRAY['900','901','902','903','904','905','930','933','935','936','937','938','939']) p
UNION ALL
SELECT '98' || p, 'rightel' FROM unnest(ARRAY['920','921','922']) p;

-- Tariffs are data: a per-part price per operator, the operator surcharge in percent
-- (spec §9: +10% Irancell and Rightel) and the per-send fee (40 rial). A row with an
-- account overrides the default (account_id NULL) for that account.
CREATE TABLE tariffs (
    id            bigserial PRIMARY KEY,
    account_id    bigint REFERENCES accounts(id) ON DELETE CASCADE,
    operator      text NOT NULL REFERENCES operators(code),
    part_price    bigint NOT NULL CHECK (part_price >= 0),
    surcharge_pct int NOT NULL DEFAULT 0 CHECK (surcharge_pct >= 0),
    send_fee      bigint NOT NULL DEFAULT 40 CHECK (send_fee >= 0),
    UNIQUE NULLS NOT DISTINCT (account_id, operator)
);
INSERT INTO tariffs (operator, part_price, surcharge_pct, send_fee) VALUES
    ('mci', 190, 0, 40), ('irancell', 190, 10, 40), ('rightel', 190, 10, 40), ('other', 190, 0, 40);

CREATE TABLE lines (
    id         bigserial PRIMARY KEY,
    account_id bigint REFERENCES accounts(id) ON DELETE CASCADE, -- NULL: a system line
    number     text NOT NULL UNIQUE,
    kind       text NOT NULL CHECK (kind IN ('advertising', 'service')),
    is_default boolean NOT NULL DEFAULT false,
    created_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX lines_one_default ON lines (account_id) WHERE is_default;
-- The system service line that carries one-time codes.
INSERT INTO lines (account_id, number, kind) VALUES (NULL, '2000', 'service');

-- The wallet: balances are written only together with a ledger row.
CREATE TABLE wallets (
    account_id bigint PRIMARY KEY REFERENCES accounts(id) ON DELETE CASCADE,
    balance    bigint NOT NULL DEFAULT 0,
    updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE ledger (
    id            bigserial PRIMARY KEY,
    account_id    bigint NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    kind          text NOT NULL CHECK (kind IN ('deposit', 'admin_credit', 'gift', 'hold', 'release', 'charge', 'refund')),
    amount        bigint NOT NULL,
    balance_after bigint NOT NULL,
    send_id       bigint,
    ref           text NOT NULL DEFAULT '',
    description   text NOT NULL DEFAULT '',
    user_id       bigint,
    created_at    timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX ledger_account_idx ON ledger (account_id, id DESC);
CREATE INDEX ledger_send_idx ON ledger (send_id) WHERE send_id IS NOT NULL;
-- A money step with a reference happens once, however often a task is retried.
CREATE UNIQUE INDEX ledger_ref_once ON ledger (account_id, ref) WHERE ref <> '';

CREATE TABLE sends (
    id              bigserial PRIMARY KEY,
    account_id      bigint NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    user_id         bigint REFERENCES users(id) ON DELETE SET NULL,
    api_key_id      bigint,
    type            text NOT NULL,
    line_id         bigint REFERENCES lines(id),
    sender          text NOT NULL,
    text            text NOT NULL,
    cancel11        boolean NOT NULL DEFAULT false,
    encoding        text NOT NULL DEFAULT 'ucs2',
    parts           int NOT NULL DEFAULT 0,
    status          text NOT NULL CHECK (status IN ('scheduled', 'queued', 'expanding', 'sending', 'done', 'stopped', 'failed')),
    priority        text NOT NULL DEFAULT 'default',
    send_at         timestamptz,
    idempotency_key text,
    numbers         text[],
    source          jsonb NOT NULL DEFAULT '{}',
    requested       int NOT NULL DEFAULT 0,
    recipients      int NOT NULL DEFAULT 0,
    invalid         int NOT NULL DEFAULT 0,
    duplicates      int NOT NULL DEFAULT 0,
    blacklisted     int NOT NULL DEFAULT 0,
    submitted       int NOT NULL DEFAULT 0,
    delivered       int NOT NULL DEFAULT 0,
    undelivered     int NOT NULL DEFAULT 0,
    rejected        int NOT NULL DEFAULT 0,
    total_parts     bigint NOT NULL DEFAULT 0,
    batches         int NOT NULL DEFAULT 0,
    quote           bigint NOT NULL DEFAULT 0,
    cost            bigint NOT NULL DEFAULT 0,
    refunded        bigint NOT NULL DEFAULT 0,
    charity         bigint NOT NULL DEFAULT 0,
    ip              text NOT NULL DEFAULT '',
    stopped_by      bigint REFERENCES users(id) ON DELETE SET NULL,
    stopped_at      timestamptz,
    error           text NOT NULL DEFAULT '',
    created_at      timestamptz NOT NULL DEFAULT now(),
    updated_at      timestamptz NOT NULL DEFAULT now(),
    expanded_at     timestamptz,
    finished_at     timestamptz,
    UNIQUE (account_id, idempotency_key)
);
CREATE INDEX sends_account_created_idx ON sends (account_id, created_at DESC);
CREATE INDEX sends_active_idx ON sends (status) WHERE status IN ('queued', 'expanding', 'sending', 'scheduled');

-- Recipient status: spec §4 codes 0 sent, 1 reached telecom, 2 reached handset,
-- 3 not reached handset, 4 blacklisted; internal 5 queued, 6 rejected (never
-- submitted: refused by the SMSC or the send was stopped; refunded), 7 submitting
-- (claimed by a gateway; if that gateway dies the outcome is unknown).
CREATE TABLE recipients (
    id              bigserial PRIMARY KEY,
    send_id         bigint NOT NULL REFERENCES sends(id) ON DELETE CASCADE,
    batch           int NOT NULL,
    mobile          text NOT NULL,
    operator        text NOT NULL,
    parts           smallint NOT NULL,
    cost            bigint NOT NULL,
    status          smallint NOT NULL,
    text            text,
    unknown         boolean NOT NULL DEFAULT false,
    parts_delivered smallint NOT NULL DEFAULT 0,
    parts_failed    smallint NOT NULL DEFAULT 0,
    error           text NOT NULL DEFAULT '',
    submitted_at    timestamptz,
    done_at         timestamptz,
    updated_at      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX recipients_send_batch_idx ON recipients (send_id, batch, status);
CREATE INDEX recipients_send_status_idx ON recipients (send_id, status);
CREATE INDEX recipients_unknown_idx ON recipients (mobile) WHERE unknown;

-- One row per submitted part: the SMSC's message id (normalised) to the recipient.
-- stat is set once by the first final receipt, which makes receipts idempotent.
CREATE TABLE message_ids (
    operator     text NOT NULL,
    msg_id       text NOT NULL,
    recipient_id bigint NOT NULL,
    send_id      bigint NOT NULL,
    part         smallint NOT NULL,
    stat         smallint,
    created_at   timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (operator, msg_id)
);
CREATE INDEX message_ids_recipient_idx ON message_ids (recipient_id);

-- Receipts whose message id was not recorded yet (the receipt overtook the submit
-- response); retried until matched or expired.
CREATE TABLE pending_receipts (
    operator    text NOT NULL,
    msg_id      text NOT NULL,
    stat        smallint NOT NULL,
    mobile      text NOT NULL DEFAULT '',
    received_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (operator, msg_id)
);

-- Inbound (MO) messages, in the inbox of the line's account.
CREATE TABLE inbox (
    id          bigserial PRIMARY KEY,
    account_id  bigint NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    line        text NOT NULL,
    sender      text NOT NULL,
    text        text NOT NULL,
    operator    text NOT NULL DEFAULT '',
    stream_id   text NOT NULL,
    received_at timestamptz NOT NULL DEFAULT now(),
    read_at     timestamptz,
    UNIQUE (stream_id)
);
CREATE INDEX inbox_account_idx ON inbox (account_id, received_at DESC);

-- The lists every send respects: the send blacklist, the receive blacklist and the
-- cancel-11 opt-outs (filled by inbound «11», emptied by «12»).
CREATE TABLE blacklist (
    account_id bigint NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    kind       text NOT NULL CHECK (kind IN ('send', 'receive', 'cancel11')),
    mobile     text NOT NULL,
    source     text NOT NULL DEFAULT 'manual' CHECK (source IN ('manual', 'import', 'inbound')),
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (account_id, kind, mobile)
);

-- The sweeper's view of work in flight.
CREATE INDEX recipients_inflight_idx ON recipients (updated_at) WHERE status IN (5, 7);
