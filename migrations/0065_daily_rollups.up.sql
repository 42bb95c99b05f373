-- Daily rollups of the dashboard charts (pkg/rollup, docs/dashboard.md#charts).
--
-- The engine marks what changed; the worker's rollup job recomputes only that.
-- 1. A send whose figures moved (expansion, recording, receipts, the close, a
--    reschedule) is put in rollup_dirty_sends by a row trigger: one primary-key
--    probe per counter update of a send (not per recipient), nothing when the
--    send is already marked. The job takes the marked sends, recomputes each one's
--    per-operator split from its recipients (rollup_send_ops) and its send-level
--    figures (rollup_sends), and marks the days they fall on.
-- 2. A stored inbound message marks its (account, day) in rollup_dirty_days.
-- 3. The job recomputes every marked day (rollup_days, rollup_day_ops) from the
--    per-send rows and the inbox of that day: a few rows per day, never a scan
--    of recipients. The dashboard reads 30 rows of rollup_days and the
--    operators' rows of rollup_day_ops.
-- Days are Tehran calendar days of the send's time (send_at, else created_at).
-- Sandbox sends and one-time codes (the platform's own account) are left out.

CREATE TABLE rollup_dirty_sends (
    send_id bigint PRIMARY KEY
);
CREATE TABLE rollup_dirty_days (
    account_id bigint NOT NULL,
    day        date NOT NULL,
    PRIMARY KEY (account_id, day)
);

-- One row per rolled-up send.
CREATE TABLE rollup_sends (
    send_id    bigint PRIMARY KEY REFERENCES sends(id) ON DELETE CASCADE,
    account_id bigint NOT NULL,
    day        date NOT NULL,
    parts      bigint NOT NULL DEFAULT 0,
    spend      bigint NOT NULL DEFAULT 0
);
CREATE INDEX rollup_sends_day_idx ON rollup_sends (account_id, day);

-- A send's recipients per operator. sent counts those handed to the operator
-- (statuses 0-3), delivered 2, undelivered 3, rejected 6 (never submitted).
CREATE TABLE rollup_send_ops (
    send_id     bigint NOT NULL REFERENCES sends(id) ON DELETE CASCADE,
    operator    text NOT NULL,
    recipients  int NOT NULL DEFAULT 0,
    sent        int NOT NULL DEFAULT 0,
    delivered   int NOT NULL DEFAULT 0,
    undelivered int NOT NULL DEFAULT 0,
    rejected    int NOT NULL DEFAULT 0,
    parts       bigint NOT NULL DEFAULT 0,
    PRIMARY KEY (send_id, operator)
);

CREATE TABLE rollup_days (
    account_id  bigint NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    day         date NOT NULL,
    sends       int NOT NULL DEFAULT 0,
    recipients  int NOT NULL DEFAULT 0,
    parts       bigint NOT NULL DEFAULT 0,
    delivered   int NOT NULL DEFAULT 0,
    undelivered int NOT NULL DEFAULT 0,
    spend       bigint NOT NULL DEFAULT 0,
    inbound     int NOT NULL DEFAULT 0,
    PRIMARY KEY (account_id, day)
);

CREATE TABLE rollup_day_ops (
    account_id  bigint NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    day         date NOT NULL,
    operator    text NOT NULL,
    recipients  int NOT NULL DEFAULT 0,
    sent        int NOT NULL DEFAULT 0,
    delivered   int NOT NULL DEFAULT 0,
    undelivered int NOT NULL DEFAULT 0,
    PRIMARY KEY (account_id, day, operator)
);

CREATE FUNCTION rollup_mark_send() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO rollup_dirty_sends (send_id) VALUES (NEW.id) ON CONFLICT DO NOTHING;
    RETURN NULL;
END
$$;

CREATE TRIGGER sends_rollup_mark AFTER UPDATE ON sends
    FOR EACH ROW
    WHEN (NOT NEW.sandbox AND NEW.type <> 'verification' AND
          (OLD.status, OLD.recipients, OLD.submitted, OLD.delivered, OLD.undelivered, OLD.rejected,
           OLD.total_parts, OLD.cost, OLD.refunded, OLD.send_at, OLD.expanded_at)
          IS DISTINCT FROM
          (NEW.status, NEW.recipients, NEW.submitted, NEW.delivered, NEW.undelivered, NEW.rejected,
           NEW.total_parts, NEW.cost, NEW.refunded, NEW.send_at, NEW.expanded_at))
    EXECUTE FUNCTION rollup_mark_send();

CREATE FUNCTION rollup_mark_inbox() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO rollup_dirty_days (account_id, day)
    VALUES (NEW.account_id, (NEW.received_at AT TIME ZONE 'Asia/Tehran')::date) ON CONFLICT DO NOTHING;
    RETURN NULL;
END
$$;

CREATE TRIGGER inbox_rollup_mark AFTER INSERT ON inbox
    FOR EACH ROW EXECUTE FUNCTION rollup_mark_inbox();

-- What existed before the rollups is rolled up by the first runs of the job.
INSERT INTO rollup_dirty_sends (send_id)
SELECT id FROM sends WHERE NOT sandbox AND type <> 'verification' AND expanded_at IS NOT NULL;
INSERT INTO rollup_dirty_days (account_id, day)
SELECT DISTINCT account_id, (received_at AT TIME ZONE 'Asia/Tehran')::date FROM inbox;
