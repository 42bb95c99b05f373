-- Per-part outcomes of a recipient (issue: stale message ids, partly-unknown
-- recipients, partial refunds, what at-most-once costs).
--
-- part_states has one character per part, written with the recipient's submit
-- outcome: 'a' accepted (its id is in message_ids), '?' unknown (sent, the
-- submit_sm_resp was lost: reconciled by receipt, then 'a'), 'r' refused by the
-- carrier, 'n' never submitted (the chunk stopped before it). '' for recipients
-- recorded before this column (or never submitted).
-- parts_rejected counts the parts 'r' and 'n': never sent, refunded at the close.
ALTER TABLE recipients
    ADD COLUMN part_states    text     NOT NULL DEFAULT '',
    ADD COLUMN parts_rejected smallint NOT NULL DEFAULT 0;

-- Recipients sent with a part that was not accepted (unknown, refused or never
-- submitted): their handset may get an incomplete concatenated message.
ALTER TABLE sends ADD COLUMN partial int NOT NULL DEFAULT 0;

-- message_ids expire after the retention window (ids are reused by SMSCs);
-- rows are appended in time order, so a BRIN index finds the old ones cheaply.
CREATE INDEX message_ids_created_brin ON message_ids USING brin (created_at);
