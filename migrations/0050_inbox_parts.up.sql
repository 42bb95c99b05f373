-- Inbound correctness (docs/inbox-secretaries.md): the parts of concatenated MO
-- messages wait in inbox_parts until the last one arrives (or the wait times out),
-- then the whole text is one inbox row. Parts stay (done) for a day so that a part
-- applied again finds its stream id and changes nothing.
CREATE TABLE inbox_parts (
    stream_id   text PRIMARY KEY,
    operator    text NOT NULL,
    sender      text NOT NULL,
    line        text NOT NULL,
    ref         int NOT NULL,
    total       int NOT NULL,
    seq         int NOT NULL,
    text        text NOT NULL,
    received_at timestamptz NOT NULL,
    done        boolean NOT NULL DEFAULT false
);
CREATE INDEX inbox_parts_group_idx ON inbox_parts (operator, sender, line, ref, total) WHERE NOT done;
CREATE INDEX inbox_parts_wait_idx ON inbox_parts (received_at) WHERE NOT done;
CREATE INDEX inbox_parts_done_idx ON inbox_parts (received_at) WHERE done;

-- parts: how many parts made the message; incomplete: a part never came.
-- reader_id: the secretary or keyword reader that answered it.
ALTER TABLE inbox ADD COLUMN parts smallint NOT NULL DEFAULT 1,
    ADD COLUMN incomplete boolean NOT NULL DEFAULT false,
    ADD COLUMN reader_id bigint;
CREATE INDEX inbox_reader_idx ON inbox (reader_id, id) WHERE reader_id IS NOT NULL;
CREATE INDEX inbox_unread_idx ON inbox (account_id) WHERE read_at IS NULL;
