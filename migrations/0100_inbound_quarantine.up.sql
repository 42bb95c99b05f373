-- Inbound stream entries (receipts, MO parts) the worker could not apply: fields
-- that are not valid UTF-8, malformed entries, or anything PostgreSQL refused for
-- that entry alone (the rest of its batch was applied). Each is kept with its raw
-- bytes (the entry's fields as key=value lines, sorted by key) for staff to see
-- (GET /v1/api/admin/inbound-quarantine), and acknowledged in the stream so it
-- never blocks anything again.
CREATE TABLE inbound_quarantine (
    id          bigserial PRIMARY KEY,
    stream_id   text NOT NULL UNIQUE,
    raw         bytea NOT NULL,
    reason      text NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX inbound_quarantine_created_idx ON inbound_quarantine (created_at DESC, id DESC);
