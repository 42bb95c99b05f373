-- Sending hours (docs/sending-rules.md): the hours in which advertising lines may
-- send, per operator ('' = every operator without its own row) and line kind, in
-- minutes since Tehran midnight; an account's own sending hours; and on each send
-- the account's hours it was accepted under and why it is paused.
CREATE TABLE send_hours (
    operator     text NOT NULL DEFAULT '',
    line_kind    text NOT NULL,
    start_minute smallint NOT NULL CHECK (start_minute BETWEEN 0 AND 1439),
    end_minute   smallint NOT NULL CHECK (end_minute BETWEEN 1 AND 1440),
    updated_by   bigint,
    updated_at   timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (operator, line_kind),
    CHECK (start_minute < end_minute)
);
INSERT INTO send_hours (operator, line_kind, start_minute, end_minute) VALUES ('', 'advertising', 420, 1320);

CREATE TABLE account_send_hours (
    account_id   bigint PRIMARY KEY REFERENCES accounts(id) ON DELETE CASCADE,
    start_minute smallint NOT NULL CHECK (start_minute BETWEEN 0 AND 1439),
    end_minute   smallint NOT NULL CHECK (end_minute BETWEEN 1 AND 1440),
    updated_at   timestamptz NOT NULL DEFAULT now(),
    CHECK (start_minute < end_minute)
);

ALTER TABLE sends
    ADD COLUMN hours_start  smallint,
    ADD COLUMN hours_end    smallint,
    ADD COLUMN pause_reason text,
    ADD COLUMN resume_at    timestamptz;
CREATE INDEX sends_window_paused ON sends (resume_at) WHERE status = 'paused' AND pause_reason = 'window';
