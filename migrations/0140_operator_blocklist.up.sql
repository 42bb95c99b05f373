-- Operator advertising block lists (docs/sending-rules.md, «Operator block lists»):
-- the numbers whose subscribers blocked advertising SMS at their operator (*800#),
-- per operator, as the engine stores mobiles (98912…). Staff import them; the
-- engine adds the numbers a carrier's receipt reports blocked. Advertising sends
-- skip them at expansion; service sends ignore them.
CREATE TABLE operator_blocklist (
    mobile     text NOT NULL CHECK (mobile ~ '^98[0-9]{10}$'),
    operator   text NOT NULL,
    source     text NOT NULL DEFAULT 'import' CHECK (source IN ('import', 'receipt')),
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (mobile, operator)
);
CREATE INDEX operator_blocklist_operator ON operator_blocklist (operator);

-- One row: bumped on every change of the list, so a cached quote that read the
-- list is not reused after it changed.
CREATE TABLE operator_blocklist_gen (
    id  boolean PRIMARY KEY DEFAULT true CHECK (id),
    gen bigint NOT NULL DEFAULT 0
);
INSERT INTO operator_blocklist_gen DEFAULT VALUES;

-- The recipients of a send left out at expansion for the operator's list (a part
-- of blacklisted), and the carrier's error of a receipt waiting for its id.
ALTER TABLE sends ADD COLUMN operator_blocked int NOT NULL DEFAULT 0;
ALTER TABLE pending_receipts ADD COLUMN err text NOT NULL DEFAULT '';
