-- Gradual sends (docs/sending-rules.md): a send released at a pace. pace_per_hour
-- is the recipients handed to the gateways per hour of open sending hours;
-- from pace_from (set at the first chunk and again after every resume) the
-- gateways may have released pace_base plus the pace times the time elapsed
-- plus one minute's worth; pace_released counts what they released;
-- pace_wait_until is when the next allotment is due (the worker re-enqueues
-- the send's batches then); pace_end_at is the expected end.
ALTER TABLE sends
    ADD COLUMN pace_per_hour   integer CHECK (pace_per_hour > 0),
    ADD COLUMN pace_from       timestamptz,
    ADD COLUMN pace_base       integer NOT NULL DEFAULT 0,
    ADD COLUMN pace_released   integer NOT NULL DEFAULT 0,
    ADD COLUMN pace_wait_until timestamptz,
    ADD COLUMN pace_end_at     timestamptz;
CREATE INDEX sends_pace_waiting ON sends (pace_wait_until) WHERE pace_wait_until IS NOT NULL;
